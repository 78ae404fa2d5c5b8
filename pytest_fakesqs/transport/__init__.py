"""Transports: in-process (botocore's send step) and HTTP on a local port (`http`)."""

from .inprocess import activate, current_handler, deactivate

__all__ = ["activate", "current_handler", "deactivate"]
