#!/usr/bin/env python3
"""A scripted OpenAI-compatible chat-completions server for ave-planner-llm's
tests (planner_llm.test).

    fake_llm_server.py --port-file F --replies R.json --log L.jsonl
                       [--expect-key KEY] [--max-requests N] [--idle-seconds S]
                       [--background]

Listens on 127.0.0.1 at a free port (written to F), serves
POST <any base>/chat/completions, and answers the assistant contents of R
(a JSON list of strings) in order. Every request body is appended to L as one
JSON line. With --expect-key, a request without "Authorization: Bearer KEY"
gets a 401. Exits after N requests, after S seconds without one, or when
killed. --background returns once the port file is written and serves from
a detached child (its standard streams closed), so a lit RUN line can start
it without waiting.

    fake_llm_server.py --show-log L.jsonl

prints each logged request's messages as plain text (for FileCheck).
"""
import argparse
import http.server
import json
import os
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        server = self.server
        server.requests += 1
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(server.args.log, "a") as log:
            log.write(json.dumps(json.loads(body)) + "\n")
        if not self.path.endswith("/chat/completions"):
            self.send_json(404, {"error": {"message": "no route " + self.path}})
            return
        key = server.args.expect_key
        if key is not None and self.headers.get("Authorization") != "Bearer " + key:
            self.send_json(401, {"error": {"message": "Incorrect API key provided"}})
            return
        if not server.replies:
            self.send_json(500, {"error": {"message": "no scripted reply left"}})
            return
        content = server.replies.pop(0)
        self.send_json(200, {"id": "chatcmpl-%d" % server.requests, "object": "chat.completion",
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": content}}]})


def show_log(path):
    with open(path) as log:
        for number, line in enumerate(log, 1):
            request = json.loads(line)
            print("=== request %d (model %s)" % (number, request.get("model")))
            for message in request.get("messages", []):
                print("--- %s" % message.get("role"))
                print(message.get("content"))


def detach():
    if os.fork() > 0:
        os._exit(0)
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file")
    parser.add_argument("--replies")
    parser.add_argument("--log")
    parser.add_argument("--expect-key")
    parser.add_argument("--max-requests", type=int, default=100)
    parser.add_argument("--idle-seconds", type=float, default=20)
    parser.add_argument("--background", action="store_true")
    parser.add_argument("--show-log")
    args = parser.parse_args()
    if args.show_log:
        show_log(args.show_log)
        return
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    server.args, server.requests, server.timeout = args, 0, args.idle_seconds
    server.timed_out = False
    server.handle_timeout = lambda: setattr(server, "timed_out", True)
    with open(args.replies) as replies:
        server.replies = json.load(replies)
    open(args.log, "a").close()
    with open(args.port_file + ".tmp", "w") as port:
        port.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    if args.background:
        detach()
    while server.requests < args.max_requests and not server.timed_out:
        server.handle_request()
    server.server_close()


if __name__ == "__main__":
    sys.exit(main())
