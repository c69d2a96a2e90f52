#!/usr/bin/env python3
"""A minimal OTLP/HTTP trace receiver for faan's end-to-end trace test.

Listens on 127.0.0.1 (a free port), prints {"port": N} first, then one JSON
line per span received on POST /v1/traces (protobuf, decoded with PyPI's
opentelemetry-proto): ids in hex, name, kind, parent, service name and the
string and integer attributes. Answers each export with an empty
ExportTraceServiceResponse. Stops by itself after --lifetime seconds.

    python tests/otlp_receiver.py [--lifetime 60]
"""
import argparse
import gzip
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

# Spans may arrive on several handler threads; one line each, whole.
PRINT = threading.Lock()


def value(v):
    kind = v.WhichOneof("value")
    return getattr(v, kind) if kind in ("string_value", "int_value", "bool_value", "double_value") else None


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != "/v1/traces":
            self.send_error(404)
            return
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        for rs in request.resource_spans:
            resource = {a.key: value(a.value) for a in rs.resource.attributes}
            for ss in rs.scope_spans:
                for s in ss.spans:
                    line = json.dumps({
                        "service": resource.get("service.name"),
                        "trace_id": s.trace_id.hex(),
                        "span_id": s.span_id.hex(),
                        "parent_span_id": s.parent_span_id.hex(),
                        "name": s.name,
                        "kind": s.kind,
                        "attributes": {a.key: value(a.value) for a in s.attributes},
                    })
                    with PRINT:
                        print(line, flush=True)
        answer = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=60.0)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Timer(args.lifetime, server.shutdown).start()
    print(json.dumps({"port": server.server_address[1]}), flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
