//! Progress from a server to the call that asked for it: `notifications/progress` carry the
//! token the call sent, and the route for that token lives as long as the call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{ProgressNotificationParam, ProgressToken};

use crate::context::ProgressReporter;

/// Where the server's `notifications/progress` go: the reporter of the call that sent the
/// token, while that call runs.
#[derive(Clone, Default)]
pub(crate) struct ProgressRoutes(Arc<Mutex<HashMap<ProgressToken, ProgressReporter>>>);

/// Removes a route when the call ends.
pub(crate) struct Route {
    routes: ProgressRoutes,
    token: ProgressToken,
}

impl Drop for Route {
    fn drop(&mut self) {
        self.routes.lock().remove(&self.token);
    }
}

impl ProgressRoutes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ProgressToken, ProgressReporter>> {
        // The map holds no invariant a panicking holder could break.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn add(&self, token: ProgressToken, reporter: ProgressReporter) -> Route {
        self.lock().insert(token.clone(), reporter);
        Route {
            routes: self.clone(),
            token,
        }
    }

    pub(super) fn deliver(&self, params: ProgressNotificationParam) {
        let reporter = self.lock().get(&params.progress_token).cloned();
        if let Some(reporter) = reporter {
            reporter.report(params.progress, params.total, params.message.as_deref());
        }
    }
}
