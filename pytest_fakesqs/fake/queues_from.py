"""`queues_from`: the queues infrastructure files declare, in the shape `queues` has."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .directory import QueueDirectory
    from .options import Options


class _DirectoryAddresses:
    """The fake's ARNs and URLs by queue name, for the readers of infrastructure files."""

    def __init__(self, directory: QueueDirectory, flavor: str) -> None:
        self._directory = directory
        self.region = directory.region
        self.account_id = directory.account_id
        self.flavor = flavor

    def arn(self, name: str) -> str:
        return self._directory.arn(self._directory.key(name))

    def url(self, name: str) -> str:
        addressing = self._directory.service.addressing
        return addressing.queue_url(self._directory.context(), self._directory.key(name))


def configured_queues(directory: QueueDirectory, options: Options) -> dict[str, dict[str, Any]]:
    """The queues of `queues_from` with those of `queues` on top (a queue in both takes the
    file's attributes and then the option's)."""
    if options.queues_from is None:
        return options.queues
    from ..iac import load_queues, queue_paths  # the readers load only when asked for

    paths = queue_paths(options.queues_from)
    addresses = _DirectoryAddresses(directory, options.flavor)
    from_files = load_queues(paths, options.queues_from_vars, addresses)
    for name, spec in options.queues.items():
        from_files[name] = {**from_files.get(name, {}), **spec}
    return from_files
