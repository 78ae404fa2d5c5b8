"""The fake served over HTTP: `FakeSQSServer` and the `fakesqs serve` command."""
