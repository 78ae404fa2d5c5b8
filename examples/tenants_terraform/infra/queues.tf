# Invoice queues, one per tenant, as production applies them (terraform apply) and as the tests
# read them (queues_from). Adding a tenant is one line in `tenants`; the dead-letter queue they
# share lets exactly these queues redrive into it.

variable "tenants" {
  description = "tenant -> seconds an invoice job may take (the queue's visibility timeout)"
  type        = map(number)
  default = {
    acme   = 60
    globex = 300 # renders a PDF per line item: slow
  }
}

resource "aws_sqs_queue" "invoices" {
  for_each                   = var.tenants
  name                       = "invoices-${each.key}"
  visibility_timeout_seconds = each.value
  receive_wait_time_seconds  = 20
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.invoices_dlq.arn
    maxReceiveCount     = 3
  })
}

resource "aws_sqs_queue" "invoices_dlq" {
  name                      = "invoices-dlq"
  message_retention_seconds = 1209600 # 14 days for an operator to look
  redrive_allow_policy = jsonencode({
    redrivePermission = "byQueue"
    sourceQueueArns   = values(aws_sqs_queue.invoices)[*].arn
  })
}
