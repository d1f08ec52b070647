"""A webhook receiver for Herald's tests: verifies every request with the Standard Webhooks
reference library (`standardwebhooks`, pinned in tests/webhooks/requirements.txt, unmodified),
answers 500 to the first `--fail` verified requests and 204 after, and appends one JSON line per
request to `--out`: {"webhook_id", "verified", "answered", "error", "body"}.

It listens on 127.0.0.1 (port `--port`, 0 for any), prints `PORT <n>` on stdout, then reads the
signing secret(s) from stdin, one line (several secrets space-separated: any may verify), before
it answers anything. `--delay` seconds are spent on every accepted request (a slow bot)."""

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--fail", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    lock = threading.Lock()
    state = {"verified": 0}
    secrets: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args) -> None:
            pass

        def do_POST(self) -> None:  # noqa: N802 (the library's name)
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length)
            headers = {key: value for key, value in self.headers.items()}
            error = None
            payload = None
            for secret in secrets:
                try:
                    payload = Webhook(secret).verify(body, headers)
                    error = None
                    break
                except WebhookVerificationError as failure:
                    error = str(failure)
            verified = payload is not None
            with lock:
                if verified:
                    state["verified"] += 1
                    answered = 500 if state["verified"] <= args.fail else 204
                else:
                    answered = 400
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps({
                        "webhook_id": headers.get("webhook-id") or headers.get("Webhook-Id"),
                        "verified": verified,
                        "answered": answered,
                        "error": error,
                        "signatures": len((headers.get("webhook-signature") or headers.get("Webhook-Signature") or "").split(" ")),
                        "body": payload,
                    }) + "\n")
            if answered == 204 and args.delay:
                time.sleep(args.delay)
            self.send_response(answered)
            self.send_header("content-length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    line = sys.stdin.readline().strip()
    secrets.extend(line.split())
    server.serve_forever()


if __name__ == "__main__":
    main()
