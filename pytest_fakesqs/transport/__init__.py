"""Transports: in-process (botocore's send step) and, later, HTTP on 127.0.0.1."""

from .inprocess import activate, current_handler, deactivate

__all__ = ["activate", "current_handler", "deactivate"]
