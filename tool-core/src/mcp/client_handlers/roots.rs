//! Roots on the client side: the list the application shares with the servers it connects
//! to, and the `notifications/roots/list_changed` they get when it changes.

#![allow(deprecated)] // roots: a handshake-era capability (SEP-2577), what servers speak today.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::{Peer, RoleClient};
use serde_json::{json, Value};

use crate::peer::Root;

/// The roots (directories, or other URIs) the application lets servers work in, shared with
/// every client connected with it ([`McpClientBuilder::roots`](crate::mcp::McpClientBuilder::roots)).
/// Cheap to clone: all clones are the same list. Changing it with [`Roots::set`] tells every
/// connected server (`notifications/roots/list_changed`) on handshake-era sessions; on
/// 2026-07-28 sessions a server asks for the roots inside each call, so it always sees the
/// list as it is.
///
/// ```
/// use tool_core::{mcp::Roots, Root};
///
/// let roots = Roots::new([Root { uri: "file:///home/ada/project".into(), name: Some("project".into()) }]);
/// assert_eq!(roots.list()[0].name.as_deref(), Some("project"));
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let told = roots.set([]).await; // no client connected yet: nobody to tell
/// assert_eq!((told, roots.list().len()), (0, 0));
/// # });
/// ```
#[derive(Clone, Default)]
pub struct Roots {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Default)]
struct Inner {
    list: Vec<Root>,
    peers: Vec<Peer<RoleClient>>,
}

impl std::fmt::Debug for Roots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Roots").field(&self.list()).finish()
    }
}

impl Roots {
    /// A list of roots.
    pub fn new(roots: impl IntoIterator<Item = Root>) -> Self {
        let handle = Roots::default();
        handle.lock().list = roots.into_iter().collect();
        handle
    }

    /// The roots as they are now.
    pub fn list(&self) -> Vec<Root> {
        self.lock().list.clone()
    }

    /// Replaces the roots and tells every connected server that they changed; returns how
    /// many were told (servers whose connection closed are forgotten).
    pub async fn set(&self, roots: impl IntoIterator<Item = Root>) -> usize {
        let peers = {
            let mut inner = self.lock();
            inner.list = roots.into_iter().collect();
            inner.peers.retain(|p| !p.is_transport_closed());
            inner.peers.clone()
        };
        let mut told = 0;
        for peer in peers {
            if peer.notify_roots_list_changed().await.is_ok() {
                told += 1;
            }
        }
        told
    }

    /// Remembers a connection, so that changes reach its server.
    pub(crate) fn attach(&self, peer: Peer<RoleClient>) {
        let mut inner = self.lock();
        inner.peers.retain(|p| !p.is_transport_closed());
        inner.peers.push(peer);
    }

    /// The list as a `roots/list` result.
    pub(crate) fn result(&self) -> Value {
        let roots: Vec<Value> = self
            .lock()
            .list
            .iter()
            .map(|root| match &root.name {
                Some(name) => json!({"uri": root.uri, "name": name}),
                None => json!({"uri": root.uri}),
            })
            .collect();
        json!({ "roots": roots })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
