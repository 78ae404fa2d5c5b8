# The chat service's queues, as production applies them (terraform apply), and as the tests
# read them (queues_from): one source of truth for the visibility timeout, the long poll and
# the redrive policy.

variable "environment" {
  type    = string
  default = "prod"
}

variable "max_receives" {
  description = "deliveries of a message before it is dead-lettered"
  type        = number
  default     = 5
}

locals {
  prefix = var.environment == "prod" ? "chat" : "chat-${var.environment}"
}

resource "yandex_message_queue" "broadcast_dlq" {
  name                      = "${local.prefix}-dlq"
  message_retention_seconds = 1209600 # 14 days to look at what failed
}

resource "yandex_message_queue" "broadcast" {
  name                       = local.prefix
  visibility_timeout_seconds = 30 # the Cloud Function's timeout, and a little more
  receive_wait_time_seconds  = 10 # long polls: fewer empty receives billed
  redrive_policy = jsonencode({
    deadLetterTargetArn = yandex_message_queue.broadcast_dlq.arn
    maxReceiveCount     = var.max_receives
  })

  # Credentials terraform applies with: the fake does not read them.
  access_key = var.ymq_access_key
  secret_key = var.ymq_secret_key
}

variable "ymq_access_key" {
  type      = string
  sensitive = true
}

variable "ymq_secret_key" {
  type      = string
  sensitive = true
}
