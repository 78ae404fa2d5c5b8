"""What the timeline draws for each event and each state: one table each, so the picture,
its legend and the docs agree. Shapes are drawn at the origin; CSS classes colour them."""

from __future__ import annotations

# event (as HistoryEvent.event names it) -> (mark class, legend label, shape at the origin)
# fmt: off
MARKS: dict[str, tuple[str, str, str]] = {
    "sent": ("sent", "sent", '<circle r="5"/>'),
    "received": ("received", "received #n", '<rect x="-4.5" y="-4.5" width="9" height="9"/>'),
    "visible again": ("visible-again", "visible again", '<circle class="hollow" r="5"/>'),
    "delay ended": ("delay-ended", "delay ended", '<path d="M0 -6L6 0L0 6L-6 0Z"/>'),
    "visibility changed": ("visibility-changed", "visibility changed", '<path class="stroke" d="M0 -7V7"/>'),
    "moved to dead-letter queue": ("dead-lettered", "dead-lettered", '<path d="M-6 -5H6L0 6Z"/>'),
    "arrived from": ("arrived", "arrived", '<circle r="3"/>'),
    "moved back": ("redriven", "redriven", '<path d="M-6 5H6L0 -6Z"/>'),
    "deleted": ("deleted", "deleted", '<rect x="-2" y="-8" width="4" height="16"/>'),
    "expired": ("expired", "expired", '<rect class="hollow" x="-4.5" y="-4.5" width="9" height="9"/>'),
    "purged": ("purged", "purged", '<path class="stroke" d="M-5 -5L5 5M5 -5L-5 5"/>'),
    "queue deleted": ("queue-deleted", "queue deleted", '<path class="stroke" d="M-5 -5L5 5M5 -5L-5 5"/>'),
    "duplicated": ("duplicated", "duplicated", '<circle class="hollow" r="6"/><circle r="2.5"/>'),
    "injected error": ("injected-error", "injected error", '<path d="M0 -7L7 6H-7Z"/>'),
}
# fmt: on
OTHER = ('<circle class="hollow" r="4"/>',)
LINE_STYLES = (("visible", "visible"), ("in-flight", "in flight"), ("delayed", "delayed"))
PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#ff7f0e", "#7f7f7f",
)  # fmt: skip

STYLE = """
.fakesqs-timeline{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:12px}
.fakesqs-timeline .lane-band{fill:#f6f8fa;stroke:#d0d7de}
.fakesqs-timeline .lane-name{font-weight:600;fill:#24292f}
.fakesqs-timeline .track-label{fill:#57606a;font-family:ui-monospace,monospace;font-size:10px}
.fakesqs-timeline .tick{stroke:#d8dee4}
.fakesqs-timeline .tick-label,.fakesqs-timeline .now text{fill:#57606a;font-size:10px}
.fakesqs-timeline .now line{stroke:#cf222e;stroke-dasharray:4 3}
.fakesqs-timeline .segment{fill:none;stroke-width:2.5}
.fakesqs-timeline .segment.in-flight{stroke-dasharray:7 3;stroke-width:4}
.fakesqs-timeline .segment.delayed{stroke-dasharray:1 4;stroke-linecap:round}
.fakesqs-timeline .segment.move{stroke-width:1.5;stroke-dasharray:3 2}
.fakesqs-timeline .mark{stroke:#24292f;stroke-width:1}
.fakesqs-timeline .mark .hollow{fill:#fff;stroke-width:2}
.fakesqs-timeline .mark .stroke{fill:none;stroke-width:2.5}
.fakesqs-timeline .mark-label{stroke:none;fill:#24292f;font-size:10px;text-anchor:middle}
.fakesqs-timeline .sent{fill:#2da44e}.fakesqs-timeline .received{fill:#0969da}
.fakesqs-timeline .visible-again .hollow{stroke:#bc4c00}
.fakesqs-timeline .delay-ended{fill:#8c959f}.fakesqs-timeline .visibility-changed .stroke{stroke:#0969da}
.fakesqs-timeline .dead-lettered{fill:#cf222e}.fakesqs-timeline .arrived{fill:#57606a}
.fakesqs-timeline .redriven{fill:#8250df}.fakesqs-timeline .deleted{fill:#24292f}
.fakesqs-timeline .expired .hollow{stroke:#8c959f}.fakesqs-timeline .purged .stroke{stroke:#953800}
.fakesqs-timeline .queue-deleted .stroke{stroke:#57606a}.fakesqs-timeline .duplicated{fill:#bf8700}
.fakesqs-timeline .injected-error{fill:#bf8700}
.fakesqs-timeline .legend text{fill:#24292f}
.fakesqs-timeline a:hover .segment{stroke-width:5}
"""
