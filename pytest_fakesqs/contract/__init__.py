"""Contract mode: the `fakesqs` fixture's verbs against a real SQS endpoint, nothing faked."""
