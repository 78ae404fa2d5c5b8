"""The test-facing façade (`FakeSQS`) and its verbs: time travel, declared queues, peeking, dead
letters, histories, calls, triggers and faults."""
