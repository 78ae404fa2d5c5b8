"""kombu's asynchronous HTTP clients, which Celery's SQS worker polls through: where each lives.

Named apart from the transport that serves them (kombu_http.py), so that the real-SQS guard can
follow their imports without importing botocore or kombu.
"""

from __future__ import annotations

# The module of each client class kombu ever shipped: pycurl's (kombu 4 to 5.4, and 5.6 on) and
# urllib3's (kombu 5.5). kombu imports the one it uses lazily, when a worker first polls.
KOMBU_CLIENTS = {
    "kombu.asynchronous.http.curl": "CurlClient",
    "kombu.asynchronous.http.urllib3_client": "Urllib3Client",
}
