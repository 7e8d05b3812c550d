//! What a server shares between its connections: the catalog being served (which the
//! application may change while serving) and the clients connected, with each one's resource
//! subscriptions and logging level. [`ServerHandle`] is the application's side of it.

// Logging is a handshake-era capability (deprecated by the 2026-07-28 revision), and what
// most clients speak today.
#![allow(deprecated)]

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use rmcp::model::{LoggingLevel, ResourceUpdatedNotificationParam};
use rmcp::{Peer, RoleServer};

use super::listings::Served;
use crate::catalog::Catalog;

/// One connected client.
struct Connection {
    peer: Peer<RoleServer>,
    subscriptions: Vec<String>,
    level: Option<LoggingLevel>,
}

pub(super) struct Shared {
    served: RwLock<Arc<Served>>,
    connections: Mutex<Vec<Connection>>,
}

/// Two `Peer`s are the same connection when they share the client info rmcp keeps per
/// connection (set by `initialize`).
fn same_peer(a: &Peer<RoleServer>, b: &Peer<RoleServer>) -> bool {
    match (a.peer_info(), b.peer_info()) {
        (Some(a), Some(b)) => Arc::ptr_eq(&a, &b),
        _ => false,
    }
}

impl Shared {
    pub fn new(catalog: Catalog) -> Shared {
        Shared {
            served: RwLock::new(Arc::new(Served::new(catalog))),
            connections: Mutex::new(Vec::new()),
        }
    }

    /// The catalog as it is now (a later change does not disturb a read in progress).
    pub fn served(&self) -> Arc<Served> {
        self.served
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn with_connection<R>(
        &self,
        peer: &Peer<RoleServer>,
        f: impl FnOnce(&mut Connection) -> R,
    ) -> R {
        let mut connections = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        connections.retain(|c| !c.peer.is_transport_closed());
        let index = match connections.iter().position(|c| same_peer(&c.peer, peer)) {
            Some(index) => index,
            None => {
                connections.push(Connection {
                    peer: peer.clone(),
                    subscriptions: Vec::new(),
                    level: None,
                });
                connections.len() - 1
            }
        };
        f(&mut connections[index])
    }

    /// Remembers a client, so that list changes reach it.
    pub fn connected(&self, peer: &Peer<RoleServer>) {
        self.with_connection(peer, |_| ());
    }

    pub fn subscribe(&self, peer: &Peer<RoleServer>, uri: &str) {
        self.with_connection(peer, |c| {
            if !c.subscriptions.iter().any(|s| s == uri) {
                c.subscriptions.push(uri.to_owned());
            }
        });
    }

    pub fn unsubscribe(&self, peer: &Peer<RoleServer>, uri: &str) {
        self.with_connection(peer, |c| c.subscriptions.retain(|s| s != uri));
    }

    pub fn set_level(&self, peer: &Peer<RoleServer>, level: LoggingLevel) {
        self.with_connection(peer, |c| c.level = Some(level));
    }

    /// The level the client asked for with `logging/setLevel`, if it did.
    pub fn level(&self, peer: &Peer<RoleServer>) -> Option<LoggingLevel> {
        self.with_connection(peer, |c| c.level)
    }

    /// Every connected client (for the tool list's changes, see `server`).
    pub(super) fn all_peers(&self) -> Vec<Peer<RoleServer>> {
        self.peers(|_| true)
    }

    fn peers(&self, filter: impl Fn(&Connection) -> bool) -> Vec<Peer<RoleServer>> {
        let mut connections = self
            .connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        connections.retain(|c| !c.peer.is_transport_closed());
        connections
            .iter()
            .filter(|c| filter(c))
            .map(|c| c.peer.clone())
            .collect()
    }
}

/// The application's handle on a server while it serves: say that a resource changed (its
/// subscribers get `notifications/resources/updated`), change the resources and prompts
/// offered (every connected client gets `notifications/resources/list_changed` or
/// `notifications/prompts/list_changed`) or the tools (`notifications/tools/list_changed`:
/// [`ServerHandle::add_tool`], [`ServerHandle::remove_tool`], [`ServerHandle::update_tools`]). Cheap to clone; works for every connection of
/// every transport the server was started on.
///
/// ```
/// use tool_core::{mcp::McpServer, resource, resources, ToolRegistry};
///
/// /// The latest reading.
/// #[resource(uri = "sensor://latest")]
/// fn latest() -> String { "21.5".into() }
///
/// let server = McpServer::new(ToolRegistry::new()).with_catalog(resources![latest]);
/// let handle = server.handle();
/// // Later, from any task: `handle.resource_updated("sensor://latest").await;`
/// # let _ = handle;
/// ```
#[derive(Clone)]
pub struct ServerHandle {
    pub(super) shared: Arc<Shared>,
    pub(super) tools: Arc<super::listings::LiveTools>,
}

impl ServerHandle {
    /// Tells every client subscribed to `uri` that it changed; returns how many were told.
    pub async fn resource_updated(&self, uri: &str) -> usize {
        let peers = self
            .shared
            .peers(|c| c.subscriptions.iter().any(|s| s == uri));
        let mut told = 0;
        for peer in peers {
            let param = ResourceUpdatedNotificationParam::new(uri);
            if peer.notify_resource_updated(param).await.is_ok() {
                told += 1;
            }
        }
        told
    }

    /// The catalog being served now.
    pub fn catalog(&self) -> Arc<Catalog> {
        self.shared.served().catalog.clone()
    }

    /// Changes the catalog being served and tells every connected client which lists
    /// changed (resources, prompts or both); returns what `change` returned.
    ///
    /// ```
    /// use tool_core::{mcp::McpServer, resource, resources, ToolRegistry};
    ///
    /// /// The latest reading.
    /// #[resource(uri = "sensor://latest")]
    /// fn latest() -> String { "21.5".into() }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let handle = McpServer::new(ToolRegistry::new()).with_catalog(resources![latest]).handle();
    /// let removed = handle.update_catalog(|c| c.remove_resource("sensor://latest")).await;
    /// assert!(removed);
    /// assert_eq!(handle.catalog().resources().count(), 0);
    /// # });
    /// ```
    pub async fn update_catalog<R>(&self, change: impl FnOnce(&mut Catalog) -> R) -> R {
        let (result, resources_changed, prompts_changed) = {
            let mut served = self
                .shared
                .served
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            let mut catalog = Catalog::clone(&served.catalog);
            let result = change(&mut catalog);
            let next = Served::new(catalog);
            let resources_changed =
                next.resources != served.resources || next.templates != served.templates;
            let prompts_changed = next.prompts != served.prompts;
            *served = Arc::new(next);
            (result, resources_changed, prompts_changed)
        };
        for peer in self.shared.peers(|_| true) {
            if resources_changed {
                let _ = peer.notify_resource_list_changed().await;
            }
            if prompts_changed {
                let _ = peer.notify_prompt_list_changed().await;
            }
        }
        result
    }
}
