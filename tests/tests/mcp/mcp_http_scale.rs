//! Scale-out for real: three replicas (`mcp_http_replica` processes) behind nginx
//! (round-robin, no stickiness), sessions in a real `redis-server`, driven by the official
//! Python MCP client (initialize, list, 300 calls). With the Redis store every call is
//! answered once and correctly; without it, the first request of a session that reaches a
//! replica not holding the session is answered 404 (the Python SDK: "Session terminated"), as
//! docs/mcp.md says; with sessions off (stateless), no store is needed.
//!
//! Needs `redis-server` and `nginx` on PATH (skipped, saying so, when missing) and a Python
//! with the `mcp` package: `TOOL_CORE_PYTHON`, else `<workspace>/.venv/bin/python`.

#![cfg(feature = "mcp-redis")]

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const CALLS: usize = 300;

/// A child process killed when dropped.
pub(crate) struct Proc(pub(crate) Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .chain(["/usr/sbin".into(), "/usr/bin".into(), "/sbin".into()])
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

fn python() -> PathBuf {
    // `tools_missing` has checked that there is one.
    tool_tests::mcp_python("the replica tests").unwrap_or_else(|| PathBuf::from("python3"))
}

fn wait_for_port(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{what} did not start listening on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub(crate) fn redis(dir: &Path) -> (Proc, String) {
    let port = free_port();
    let child = Command::new(which("redis-server").unwrap())
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ])
        .args(["--appendonly", "no", "--dir"])
        .arg(dir)
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server starts");
    wait_for_port(port, "redis-server");
    (Proc(child), format!("redis://127.0.0.1:{port}/"))
}

/// A replica; its `served add A B` lines (and the task tests' `started ..` and `stopped ..`
/// lines) are collected into `served`, each after the replica's port.
pub(crate) fn replica(extra: &[&str], served: Arc<Mutex<Vec<String>>>) -> (Proc, u16) {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp_http_replica"))
        .args(["--addr", &format!("127.0.0.1:{port}")])
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the replica starts");
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if ["served ", "started ", "stopped "]
                .iter()
                .any(|prefix| line.starts_with(prefix))
            {
                served.lock().unwrap().push(format!("{port} {line}"));
            }
        }
    });
    wait_for_port(port, "a replica");
    (Proc(child), port)
}

pub(crate) fn nginx(dir: &Path, upstreams: &[u16]) -> (Proc, u16) {
    let port = free_port();
    let servers: String = upstreams
        .iter()
        .map(|p| format!("server 127.0.0.1:{p};"))
        .collect();
    let d = dir.display();
    let config = format!(
        "daemon off; master_process off; worker_processes 1; pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 512; }}
http {{
  access_log off;
  client_body_temp_path {d}/body; proxy_temp_path {d}/proxy; fastcgi_temp_path {d}/fastcgi;
  uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;
  upstream mcp {{ {servers} keepalive 16; }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection \"\";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_read_timeout 60s;
    }}
  }}
}}
"
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, config).unwrap();
    let child = Command::new(which("nginx").unwrap())
        .args(["-p"])
        .arg(dir)
        .arg("-c")
        .arg(&path)
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx starts");
    wait_for_port(port, "nginx");
    (Proc(child), port)
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tool-core-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the Python client through nginx; returns (succeeded, its JSON line).
fn python_client(port: u16) -> (bool, serde_json::Value) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mcp/python_scale_client.py");
    let output = Command::new(python())
        .arg(script)
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .arg(CALLS.to_string())
        .output()
        .expect("the Python client runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    let outcome = serde_json::from_str(line).unwrap_or_else(|_| {
        panic!(
            "the Python client printed no outcome; is the `mcp` package installed?\nstdout: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.success(), outcome)
}

pub(crate) fn tools_missing() -> bool {
    let missing: Vec<_> = ["redis-server", "nginx"]
        .into_iter()
        .filter(|p| which(p).is_none())
        .collect();
    if !missing.is_empty() {
        // CI installs both (.ci/run): there a missing program is a failure, never a skip.
        assert!(
            std::env::var_os("CI").is_none(),
            "{} not installed: .ci/run installs redis-server and nginx with apt-get",
            missing.join(" and ")
        );
        eprintln!(
            "SKIPPED: {} not installed (apt-get install redis-server nginx)",
            missing.join(" and ")
        );
    }
    !missing.is_empty() || tool_tests::mcp_python("the replica tests").is_none()
}

/// Starts three replicas with `extra` flags behind nginx and runs the Python client.
fn three_replicas(name: &str, extra: &[&str]) -> (bool, serde_json::Value, Vec<String>) {
    let dir = scratch(name);
    let served = Arc::new(Mutex::new(Vec::new()));
    let replicas: Vec<_> = (0..3).map(|_| replica(extra, served.clone())).collect();
    let ports: Vec<u16> = replicas.iter().map(|(_, port)| *port).collect();
    let (_nginx, port) = nginx(&dir, &ports);
    let (ok, outcome) = python_client(port);
    drop(replicas);
    let served = served.lock().unwrap().clone();
    let _ = std::fs::remove_dir_all(&dir);
    (ok, outcome, served)
}

/// Every call answered exactly once, and by more than one replica.
fn assert_each_call_served_once(served: &[String]) {
    let mut values: Vec<i64> = served
        .iter()
        .filter_map(|line| line.split_whitespace().nth(3)?.parse().ok())
        .collect();
    values.sort_unstable();
    assert_eq!(
        values,
        (0..CALLS as i64).collect::<Vec<_>>(),
        "each call ran once"
    );
    let mut replicas: Vec<&str> = served
        .iter()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    replicas.sort_unstable();
    replicas.dedup();
    assert_eq!(
        replicas.len(),
        3,
        "round-robin spread the calls over all replicas"
    );
}

#[test]
fn three_replicas_share_sessions_in_redis() {
    if tools_missing() {
        return;
    }
    let dir = scratch("redis");
    let (_redis, url) = redis(&dir);
    let (ok, outcome, served) = three_replicas("sessions-in-redis", &["--redis", &url]);
    assert!(ok, "the Python client failed: {outcome}");
    assert_eq!(outcome["done"], CALLS);
    assert_eq!(outcome["tools"], serde_json::json!(["add", "long_count"]));
    assert_each_call_served_once(&served);
}

#[test]
fn without_the_store_a_session_breaks_on_the_next_replica() {
    if tools_missing() {
        return;
    }
    let (ok, outcome, served) = three_replicas("sessions-in-memory", &[]);
    assert!(!ok, "without a shared store the run must fail: {outcome}");
    let error = outcome["error"].as_str().unwrap_or_default().to_lowercase();
    assert!(
        // The Python SDK reports the 404 to a session's request as "Session terminated".
        error.contains("session terminated")
            || error.contains("session not found")
            || error.contains("404"),
        "the failure docs/mcp.md describes (HTTP 404, session not found): {error}"
    );
    assert!(served.len() < CALLS, "the run stopped early");
}

#[test]
fn stateless_replicas_need_no_store() {
    if tools_missing() {
        return;
    }
    let (ok, outcome, served) = three_replicas("stateless", &["--stateless"]);
    assert!(ok, "the Python client failed: {outcome}");
    assert_eq!(outcome["done"], CALLS);
    assert_each_call_served_once(&served);
}
