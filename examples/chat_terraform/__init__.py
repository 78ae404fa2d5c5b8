"""The chat service of examples/chat, its queues declared by the Terraform production applies."""
