#!/usr/bin/env python3
"""The `mcp_http` example against a bare rmcp server under wrk, in one run.

    python3 scripts/mcp_http_wrk.py [--seconds 5] [--connections 50] [--rounds 1] [--no-build]

Builds, in release, the `mcp_http` example (`--features mcp-http`, default flags: loopback
`Host` and `Origin` checks on, sessions in this process) and the `mcp_http_rmcp` example: a
bare rmcp server (its own `StreamableHttpService` with its default configuration and the same
`add` tool on `axum::serve`, with `TCP_NODELAY` as the `mcp_http` example has it). For each
server in turn: start it, open one session (`initialize`, `notifications/initialized`), check
one call, warm up, then run wrk (one thread) with one `tools/call` of `add` per request on
that session, first on one connection, then on `--connections`. Every reply is checked (HTTP
200 and `"isError":false`).

With valgrind installed, each server is also run under callgrind for a fixed number of
sequential calls on one connection (after a warm-up, counters zeroed): its instructions per
call, which on a noisy shared machine are the figure to trust for small differences
(callgrind counts exactly; wrk's times move with every other process on the machine).

Needs wrk (`apt-get install -y wrk`). Prints a table and the ratios (example / rmcp).
"""
import argparse, glob, http.client, json, os, re, shutil, signal, subprocess, sys, tempfile
import urllib.parse, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACCEPT = "application/json, text/event-stream"
VERSION = "2025-11-25"

LUA = r'''
-- Globals, so that `thread:set` reaches them in each thread's own Lua state.
threads = {}
counter = 0
tid = 0
bad = 0
function setup(thread)
  tid = tid + 1
  thread:set("tid", tid)
  table.insert(threads, thread)
end
function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["Mcp-Session-Id"] = os.getenv("MCP_SESSION")
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
end
function request()
  counter = counter + 1
  -- Ids unique within the session across threads and connections.
  local body = string.format('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"add","arguments":{"a":%d,"b":1}}}', tid * 1000000000 + counter, counter)
  return wrk.format(nil, nil, nil, body)
end
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"isError":false', 1, true) then
    bad = bad + 1
  end
end
function done(summary, latency, requests)
  local b = 0
  for _, t in ipairs(threads) do b = b + t:get("bad") end
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT %d %d %d %d %d %d %d\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), b, errors))
end
'''


def cargo_json(args):
    out = subprocess.run(["cargo"] + args + ["--message-format=json"], cwd=ROOT, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    found = {}
    for line in out.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("executable"):
            found[message["target"]["name"]] = message["executable"]
    return found


def binaries(build):
    """The `mcp_http` example and the bare rmcp server, built in release."""
    if build:
        built = cargo_json(["build", "--release", "-p", "tool-examples", "--example", "mcp_http",
                            "--example", "mcp_http_rmcp", "--features", "mcp-http"])
        return built["mcp_http"], built["mcp_http_rmcp"]
    examples = os.path.join(ROOT, "target", "release", "examples")
    paths = [os.path.join(examples, name) for name in ("mcp_http", "mcp_http_rmcp")]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        sys.exit(f"not built yet: {missing}; run without --no-build")
    return tuple(paths)


def post(url, body, session=None):
    headers = {"Content-Type": "application/json", "Accept": ACCEPT,
               "MCP-Protocol-Version": VERSION}
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers,
                                     method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.headers.get("mcp-session-id"), response.read().decode()


def open_session(url):
    status, session, _ = post(url, {
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": VERSION, "capabilities": {},
                   "clientInfo": {"name": "wrk", "version": "1"}}})
    if status != 200 or not session:
        sys.exit(f"initialize at {url} answered {status} without a session")
    status, _, _ = post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    if status != 202:
        sys.exit(f"notifications/initialized answered {status}")
    status, _, body = post(url, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": "add", "arguments": {"a": 2, "b": 3}}},
                           session)
    if status != 200 or '"isError":false' not in body or '"5"' not in body.replace("\\", ""):
        sys.exit(f"a check call answered {status}: {body}")
    return session


def wrk(url, session, connections, seconds, script):
    """One wrk run on `session`: calls/s and latency percentiles (ms)."""
    env = dict(os.environ, MCP_SESSION=session)
    result = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency",
                             "-s", script, url], env=env, check=True, stdout=subprocess.PIPE,
                            text=True).stdout
    line = next((l for l in result.splitlines() if l.startswith("RESULT ")), None)
    if line is None:
        sys.exit(f"wrk printed no result:\n{result}")
    requests, duration, p50, p90, p99, bad, errors = map(int, line.split()[1:])
    return {
        "calls": requests, "rps": requests / (duration / 1e6), "p50": p50 / 1e3,
        "p90": p90 / 1e3, "p99": p99 / 1e3, "bad": bad, "errors": errors,
    }


def drive(url, session, calls):
    """`calls` sequential tools/call on one keep-alive connection, each reply checked."""
    parsed = urllib.parse.urlparse(url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=120)
    headers = {"Content-Type": "application/json", "Accept": ACCEPT,
               "MCP-Protocol-Version": VERSION, "Mcp-Session-Id": session}
    for i in range(calls):
        body = json.dumps({"jsonrpc": "2.0", "id": 1000 + i, "method": "tools/call",
                           "params": {"name": "add", "arguments": {"a": i, "b": 1}}})
        connection.request("POST", parsed.path, body, headers)
        response = connection.getresponse()
        data = response.read()
        if response.status != 200 or b'"isError":false' not in data:
            sys.exit(f"call {i} answered {response.status}: {data!r}")
    connection.close()


def instructions(command, calls):
    """The server's instructions per call under callgrind: `calls` sequential calls after a
    warm-up, counted from zeroed counters to a dump."""
    scratch = tempfile.mkdtemp(prefix="mcpperf-cg-")
    process, url = serve(["valgrind", "--tool=callgrind",
                          f"--callgrind-out-file={scratch}/cg.%p"] + command, quiet=True)
    try:
        session = open_session(url)
        drive(url, session, 20)
        subprocess.run(["callgrind_control", "--zero", str(process.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        drive(url, session, calls)
        subprocess.run(["callgrind_control", "--dump=calls", str(process.pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        dumps = [f for f in glob.glob(f"{scratch}/cg.*") if os.path.getsize(f) > 0]
        if not dumps:
            sys.exit("callgrind wrote no dump")
        with open(dumps[0]) as f:
            total = next(int(l.split()[1]) for l in f if l.startswith(("summary:", "totals:")))
        return total / calls
    finally:
        stop(process)
        shutil.rmtree(scratch, ignore_errors=True)


def stop(process):
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def serve(command, quiet=False):
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True,
                               stderr=subprocess.DEVNULL if quiet else None)
    line = process.stdout.readline()
    match = re.search(r"listening on (http://\S+)", line)
    if not match:
        process.kill()
        sys.exit(f"{command[0]} printed {line!r}")
    return process, match.group(1)


def measure(name, command, args, script):
    process, url = serve(command)
    try:
        session = open_session(url)
        wrk(url, session, args.connections, 1, script)  # warm-up
        return [(f"{name}, 1 connection", wrk(url, session, 1, args.seconds, script)),
                (f"{name}, {args.connections} connections",
                 wrk(url, session, args.connections, args.seconds, script))]
    finally:
        stop(process)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--calls", type=int, default=1000,
                        help="calls counted under callgrind (0: skip the count)")
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("needs wrk: apt-get install -y wrk")
    example, baseline = binaries(not args.no_build)
    count = shutil.which("valgrind") and shutil.which("callgrind_control") and args.calls > 0
    servers = [
        ("mcp_http example", [example, "--addr", "127.0.0.1:0"]),
        ("bare rmcp", [baseline, "--addr", "127.0.0.1:0"]),
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(LUA)
        script = f.name
    results = []
    try:
        for _ in range(args.rounds):
            for name, command in servers:
                results.extend(measure(name, command, args, script))
    finally:
        os.unlink(script)
    print(f"wrk, one session, one tools/call of `add` per request, {args.seconds} s per row:")
    print(f"{'':<34} {'calls/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} "
          f"{'bad':>4} {'errors':>6}")
    for name, r in results:
        print(f"{name:<34} {r['rps']:>9,.0f} {r['p50']:>8.3f} {r['p90']:>8.3f} {r['p99']:>8.3f} "
              f"{r['bad']:>4} {r['errors']:>6}")
    # Each round's example rows against the rmcp rows measured right after them.
    for i in range(0, len(results), 4):
        ours, theirs = results[i:i + 2], results[i + 2:i + 4]
        for (name, o), (_, t) in zip(ours, theirs):
            label = name.replace("mcp_http example, ", "")
            print(f"example/rmcp at {label}: calls/s {o['rps'] / t['rps']:.2f}x, "
                  f"p50 {o['p50'] / t['p50']:.2f}x")
    if count:
        counted = [(name, instructions(command, args.calls)) for name, command in servers]
        print(f"callgrind, {args.calls} sequential calls on one connection:")
        for name, per_call in counted:
            print(f"{name:<34} {per_call:>11,.0f} instructions per call")
        print(f"example/rmcp instructions per call: {counted[0][1] / counted[1][1]:.2f}x")
    if any(r["bad"] or r["errors"] for _, r in results):
        sys.exit("some calls failed (see bad/errors)")


if __name__ == "__main__":
    main()
