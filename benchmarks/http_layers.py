"""The HTTP layers `fakesqs serve` could be built on, each answering the same trivial request:
what one request costs the server in CPU (the choice in docs/server-mode.md).

    python -m venv .venv-layers && .venv-layers/bin/pip install h11 httptools uvicorn hypercorn
    .venv-layers/bin/python benchmarks/http_layers.py            # 3 interleaved rounds
    .venv-layers/bin/python benchmarks/http_layers.py threaded httptools --rounds 5

Each layer runs in a subprocess of its own on a free 127.0.0.1 port; 4 keep-alive clients in
this process send 3,000 POSTs shaped like a boto3 ListQueues call. Reported per layer: requests
per second (bounded by the clients as much as the server) and the server process's CPU time per
request (user + system, from /proc), which a busy machine skews less than wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

BODY = b'{"QueueUrls": []}'
LAYERS = ("threaded", "h11", "httptools", "uvicorn-h11", "uvicorn-httptools", "hypercorn")
HEADERS = {
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Target": "AmazonSQS.ListQueues",
    "X-Amz-Date": "20240101T000000Z",
    "Authorization": "AWS4-HMAC-SHA256 Credential=test/20240101/us-east-1/sqs/aws4_request, "
    "SignedHeaders=host;x-amz-date, Signature=" + "a" * 64,
    "User-Agent": "Boto3/1.34 md/Botocore#1.34 ua/2.0 os/linux lang/python#3.11",
}


async def _asgi(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    more = True
    while more:
        more = (await receive()).get("more_body", False)
    headers = [(b"content-type", b"application/x-amz-json-1.0"), (b"content-length", b"17")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": BODY})


def _threaded(port: int) -> None:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, True)
            super().setup()

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.0")
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY)

        def log_message(self, *args: Any) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


def _h11(port: int) -> None:
    import h11

    class Connection(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.http = h11.Connection(h11.SERVER)

        def data_received(self, data: bytes) -> None:
            self.http.receive_data(data)
            while True:
                event = self.http.next_event()
                if event is h11.NEED_DATA or event is h11.PAUSED:
                    break
                if isinstance(event, h11.EndOfMessage):
                    headers = [("Content-Type", "application/x-amz-json-1.0")]
                    headers.append(("Content-Length", str(len(BODY))))
                    out = self.http.send(h11.Response(status_code=200, headers=headers))
                    out += self.http.send(h11.Data(data=BODY)) + self.http.send(h11.EndOfMessage())
                    self.transport.write(out)
                    self.http.start_next_cycle()
                elif isinstance(event, h11.ConnectionClosed):
                    self.transport.close()
                    break

    _serve_protocol(Connection, port)


def _httptools(port: int) -> None:
    import httptools

    answer = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n"
        b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY
    )

    class Connection(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.parser = httptools.HttpRequestParser(self)

        def on_message_complete(self) -> None:
            self.transport.write(answer)

        def data_received(self, data: bytes) -> None:
            self.parser.feed_data(data)

    _serve_protocol(Connection, port)


def _serve_protocol(factory: Any, port: int) -> None:
    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(factory, "127.0.0.1", port)
        await server.serve_forever()

    asyncio.run(main())


def serve(layer: str, port: int) -> None:
    if layer == "threaded":
        _threaded(port)
    elif layer == "h11":
        _h11(port)
    elif layer == "httptools":
        _httptools(port)
    elif layer.startswith("uvicorn-"):
        import uvicorn

        kind = layer.split("-", 1)[1]
        uvicorn.run(
            _asgi, host="127.0.0.1", port=port, http=kind, log_level="error", lifespan="off"
        )
    elif layer == "hypercorn":
        from hypercorn.asyncio import serve as hypercorn_serve
        from hypercorn.config import Config

        config = Config()
        config.bind = [f"127.0.0.1:{port}"]
        asyncio.run(hypercorn_serve(_asgi, config))  # type: ignore[arg-type]


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(layer: str, requests: int, clients: int) -> tuple[float, float]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, __file__, "--serve", layer, str(port)])
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)

        def client() -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            for _ in range(requests // clients):
                connection.request("POST", "/", body=b"{}", headers=HEADERS)
                connection.getresponse().read()
            connection.close()

        threads = [threading.Thread(target=client) for _ in range(clients)]
        cpu, started = _cpu_seconds(process.pid), time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        return requests / seconds, (_cpu_seconds(process.pid) - cpu) / requests * 1e6
    finally:
        process.kill()
        process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "layers", nargs="*", default=list(LAYERS), metavar="LAYER", help=", ".join(LAYERS)
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=3_000)
    parser.add_argument("--serve", nargs=2, metavar=("LAYER", "PORT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve[0], int(args.serve[1]))
        return 0
    results: dict[str, list[tuple[float, float]]] = {layer: [] for layer in args.layers}
    for _ in range(args.rounds):
        for layer in args.layers:  # interleaved: a busy moment hits every layer alike
            results[layer].append(measure(layer, args.requests, 4))
    print("| layer | requests/s (median) | server CPU per request, µs (median; min-max) |")
    print("|---|---:|---:|")
    for layer, samples in results.items():
        rates = [rate for rate, _ in samples]
        costs = sorted(cost for _, cost in samples)
        print(
            f"| {layer} | {statistics.median(rates):,.0f} | {statistics.median(costs):,.0f} "
            f"({costs[0]:,.0f}-{costs[-1]:,.0f}) |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
