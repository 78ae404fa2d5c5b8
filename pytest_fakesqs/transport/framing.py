"""Reading a request body by its framing (Content-Length or chunked), within a size limit.

Every way a body can be malformed, too large or cut short is a `FramingError` with the status
to answer; nothing here waits beyond what the caller's read deadline allows.
"""

from __future__ import annotations

from email.message import Message
from io import BufferedIOBase

MAX_TRAILERS = 100
MAX_LINE = 1024  # a chunk-size line: hex digits and perhaps extensions


class FramingError(ValueError):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def declared_length(headers: Message) -> int | None:
    """The Content-Length as a number; None when absent or not a number."""
    text = (headers.get("Content-Length") or "").strip()
    return int(text) if text.isdigit() else None


def read_body(rfile: BufferedIOBase, headers: Message, limit: int, max_header_bytes: int) -> bytes:
    if "chunked" in headers.get("Transfer-Encoding", "").lower():
        return _chunked(rfile, limit, max_header_bytes)
    text = (headers.get("Content-Length") or "0").strip()
    if not text.isdigit():
        raise FramingError(400, f"Malformed Content-Length {text[:40]!r}")
    length = int(text)
    if length > limit:
        raise FramingError(413, f"Request body larger than {limit} bytes")
    body = rfile.read(length) if length > 0 else b""
    if len(body) < length:
        raise FramingError(400, f"Body cut short: {len(body)} of {length} bytes")
    return body


def _chunked(rfile: BufferedIOBase, limit: int, max_header_bytes: int) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        line = rfile.readline(MAX_LINE)
        if not line.endswith(b"\n"):
            raise FramingError(400, "Malformed chunk size line")
        size_text = line.split(b";")[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            raise FramingError(400, f"Malformed chunk size {size_text[:20]!r}") from None
        if size < 0:
            raise FramingError(400, "Malformed chunk size")
        if size == 0:
            for _ in range(MAX_TRAILERS):  # trailers, then the blank line
                if not rfile.readline(max_header_bytes).strip():
                    return b"".join(chunks)
            raise FramingError(400, "Too many trailers")
        total += size
        if total > limit:
            raise FramingError(413, f"Chunked body larger than {limit} bytes")
        chunk = rfile.read(size)
        if len(chunk) < size:
            raise FramingError(400, "Chunked body cut short")
        chunks.append(chunk)
        rfile.readline(MAX_LINE)
