"""Transports: in-process (botocore's send step; `serving` says which fake answers) and HTTP on
a local port (`http`). This package's own namespace imports nothing: the real-SQS guard reads
it on every pytest run."""

from __future__ import annotations

# kombu's asynchronous HTTP clients, which Celery's SQS worker polls through, named apart from
# the transport that serves them (kombu_http.py) so that the guard can follow their imports
# without importing botocore or kombu: the module of each client class kombu ever shipped,
# pycurl's (kombu 4 to 5.4, and 5.6 on) and urllib3's (kombu 5.5). kombu imports the one it uses
# lazily, when a worker first polls.
KOMBU_CLIENTS = {
    "kombu.asynchronous.http.curl": "CurlClient",
    "kombu.asynchronous.http.urllib3_client": "Urllib3Client",
}
