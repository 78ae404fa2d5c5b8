"""Pictures of what happened: an SVG timeline of messages across queues, the HTML page of a
failing test, and the read-only dashboard of `fakesqs serve`.

Everything here takes plain records (`HistoryEvent`, `Call`, `DeadLetter`, the summaries of
`fake.snapshot`), never the `FakeSQS` façade, and imports nothing above the fake's records: the
plugin and the server call it, only when a picture is asked for.
"""
