#!/usr/bin/env python3
"""N requests on one keep-alive connection, each answered 200 before the next:
`GET /healthz`, or `POST /v1/score` with one fixed body (kind `hit` or `miss`;
the server's cache size decides which). Used by bench/instructions.sh.

    python3 bench/requests.py PORT N healthz|hit|miss
"""
import socket
import sys

BODY = (b'{"ruleset":"wisteria-court","hand":{"tiles":"123456m789p23455s","winning_tile":"9p"},'
        b'"context":{"win_by":"self_draw","seat_wind":"south","round_wind":"east"}}')


def main():
    port, n, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if kind == "healthz":
        req = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"
    else:
        req = (b"POST /v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n%s" % (len(BODY), BODY))
    s = socket.create_connection(("127.0.0.1", port))
    buf = b""
    for _ in range(n):
        s.sendall(req)
        while True:
            h = buf.find(b"\r\n\r\n")
            if h >= 0:
                head = buf[:h].lower()
                length = int(head.split(b"content-length:")[1].split(b"\r\n")[0])
                if len(buf) >= h + 4 + length:
                    if not head.startswith(b"http/1.1 200"):
                        sys.exit(f"not a 200: {head[:40]!r}")
                    buf = buf[h + 4 + length:]
                    break
            chunk = s.recv(65536)
            if not chunk:
                sys.exit("connection closed")
            buf += chunk


if __name__ == "__main__":
    main()
