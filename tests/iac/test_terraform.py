"""Terraform files into declared queues: real-world-shaped modules, and every refusal's text."""

from __future__ import annotations

import json

import pytest

from .conftest import Files

SHOP = """
variable "env" {
  type    = string
  default = "dev"
}

variable "max_receives" {
  type    = number
  default = 5
}

locals {
  prefix = "shop-${var.env}"
  tags   = { team = "orders", env = var.env }
}

resource "aws_sqs_queue" "orders_dlq" {
  name                      = "${local.prefix}-orders-dlq"
  message_retention_seconds = 14 * 24 * 3600
  tags                      = local.tags
}

resource "aws_sqs_queue" "orders" {
  name                       = "${local.prefix}-orders"
  visibility_timeout_seconds = 30
  receive_wait_time_seconds  = 10
  delay_seconds              = var.env == "prod" ? 0 : 2
  sqs_managed_sse_enabled    = true
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = var.max_receives
  })
  tags = merge(local.tags, { queue = "main" })

  lifecycle {
    prevent_destroy = true
  }
}

resource "aws_sqs_queue_policy" "orders" {
  queue_url = aws_sqs_queue.orders.id
  policy    = <<-POLICY
    {
      "Version": "2012-10-17",
      "Statement": [{
        "Effect": "Allow",
        "Principal": {"Service": "sns.amazonaws.com"},
        "Action": "sqs:SendMessage",
        "Resource": "${aws_sqs_queue.orders.arn}",
        "Condition": {"ArnEquals": {"aws:SourceArn": "${aws_sns_topic.orders.arn}"}}
      }]
    }
  POLICY
}

resource "aws_sqs_queue_redrive_allow_policy" "orders_dlq" {
  queue_url = aws_sqs_queue.orders_dlq.url
  redrive_allow_policy = jsonencode({
    redrivePermission = "byQueue",
    sourceQueueArns   = [aws_sqs_queue.orders.arn]
  })
}

resource "aws_sns_topic" "orders" {
  name = "${local.prefix}-orders"
}

output "orders_url" {
  value = aws_sqs_queue.orders.url
}
"""

POLICY = """{
  "Version": "2012-10-17",
  "Statement": [{
    "Effect": "Allow",
    "Principal": {"Service": "sns.amazonaws.com"},
    "Action": "sqs:SendMessage",
    "Resource": "arn:aws:sqs:us-east-1:123456789012:shop-ci-orders",
    "Condition": {"ArnEquals": {"aws:SourceArn": "arn:aws:sns:us-east-1:123456789012:shop-ci-orders"}}
  }]
}
"""


def test_a_module_with_variables_locals_references_and_policies(files: Files) -> None:
    files.write("infra/main.tf", SHOP)

    queues = files.queues("infra/main.tf", variables={"env": "ci"})

    assert queues == {
        "shop-ci-orders-dlq": {
            "MessageRetentionPeriod": "1209600",
            "RedriveAllowPolicy": '{"redrivePermission":"byQueue","sourceQueueArns":'
            '["arn:aws:sqs:us-east-1:123456789012:shop-ci-orders"]}',
            "tags": {"team": "orders", "env": "ci"},
        },
        "shop-ci-orders": {
            "VisibilityTimeout": "30",
            "DelaySeconds": "2",
            "ReceiveMessageWaitTimeSeconds": "10",
            "SqsManagedSseEnabled": "true",
            "Policy": POLICY,
            "dlq": "shop-ci-orders-dlq",
            "max_receive_count": 5,
            "tags": {"team": "orders", "env": "ci", "queue": "main"},
        },
    }


def test_a_folder_is_one_module_and_its_variables_defaults_apply(files: Files) -> None:
    files.write("infra/variables.tf", 'variable "env" {\n  default = "staging"\n}\n')
    files.write(
        "infra/queues.tf",
        """
        resource "aws_sqs_queue" "jobs" {
          name = "jobs-${var.env}"
        }
        """,
    )
    files.write("infra/README.md", "not read")

    assert files.queues("infra") == {"jobs-staging": {}}


def test_a_queue_without_name_takes_its_label_and_fifo_its_suffix(files: Files) -> None:
    files.write(
        "main.tf",
        """
        resource "aws_sqs_queue" "audit_log" {
          visibility_timeout_seconds = 60
        }

        resource "aws_sqs_queue" "events" {
          fifo_queue                  = true
          content_based_deduplication = true
          deduplication_scope         = "messageGroup"
          fifo_throughput_limit       = "perMessageGroupId"
        }
        """,
    )

    assert files.queues("main.tf") == {
        "audit_log": {"VisibilityTimeout": "60"},
        "events.fifo": {
            "FifoQueue": "true",
            "ContentBasedDeduplication": "true",
            "DeduplicationScope": "messageGroup",
            "FifoThroughputLimit": "perMessageGroupId",
        },
    }


def test_separate_redrive_policy_and_references_by_name(files: Files) -> None:
    files.write(
        "main.tf",
        """
        resource "aws_sqs_queue" "q" {
          name = "examplequeue"
        }

        resource "aws_sqs_queue" "ddl" {
          name = "${aws_sqs_queue.q.name}-ddl"
          kms_master_key_id                 = "alias/aws/sqs"
          kms_data_key_reuse_period_seconds = 300
        }

        resource "aws_sqs_queue_redrive_policy" "q" {
          queue_url = aws_sqs_queue.q.id
          redrive_policy = jsonencode({
            deadLetterTargetArn = aws_sqs_queue.ddl.arn
            maxReceiveCount     = 4
          })
        }
        """,
    )

    assert files.queues("main.tf") == {
        "examplequeue": {"dlq": "examplequeue-ddl", "max_receive_count": 4},
        "examplequeue-ddl": {
            "KmsMasterKeyId": "alias/aws/sqs",
            "KmsDataKeyReusePeriodSeconds": "300",
        },
    }


def test_tf_json_strings_are_templates(files: Files) -> None:
    files.write(
        "main.tf.json",
        json.dumps(
            {
                "variable": {"env": {"default": "dev"}},
                "resource": {
                    "aws_sqs_queue": {
                        "dlq": {"name": "jobs-${var.env}-dlq"},
                        "jobs": {
                            "name": "jobs-${var.env}",
                            "visibility_timeout_seconds": 45,
                            "redrive_policy": "${jsonencode({deadLetterTargetArn = "
                            "aws_sqs_queue.dlq.arn, maxReceiveCount = 3})}",
                        },
                    }
                },
            },
            indent=2,
        ),
    )

    assert files.queues("main.tf.json", variables={"env": "ci"}) == {
        "jobs-ci-dlq": {},
        "jobs-ci": {"VisibilityTimeout": "45", "dlq": "jobs-ci-dlq", "max_receive_count": 3},
    }


def test_escapes_and_literal_interpolations_stay_text(files: Files) -> None:
    files.write(
        "main.tf",
        r"""
        resource "aws_sqs_queue" "q" {
          name   = "q"
          policy = "{\"Sid\": \"$${not.a.reference}\", \"Tab\": \"a\tb\"}"
        }
        """,
    )

    assert files.queues("main.tf") == {
        "q": {"Policy": '{"Sid": "${not.a.reference}", "Tab": "a\tb"}'}
    }


def test_the_region_argument_must_be_the_fakes(files: Files) -> None:
    files.write(
        "main.tf", 'resource "aws_sqs_queue" "q" {\n  name   = "q"\n  region = "eu-west-1"\n}\n'
    )

    assert files.queues("main.tf", region="eu-west-1") == {"q": {}}
    assert files.error("main.tf") == (
        "main.tf:3: aws_sqs_queue.q: region 'eu-west-1' is not the fake's region 'us-east-1'; "
        "set the fakesqs option region='eu-west-1'"
    )


UNRESOLVABLE = [
    (
        "module.queues.dlq_arn",
        "main.tf:7: cannot resolve module.queues.dlq_arn: the fake does not read module outputs; "
        "declare the queue in the files queues_from reads, or with queues=",
    ),
    (
        "local.dlq_arn",
        "main.tf:7: cannot resolve local.dlq_arn: no locals block gives local.dlq_arn a value",
    ),
    (
        "data.aws_sqs_queue.shared.arn",
        "main.tf:7: cannot resolve data.aws_sqs_queue.shared.arn: the fake does not read data "
        "sources; write the value in the file (a string, jsonencode(...) or a heredoc), or "
        "declare the queue with queues=",
    ),
    (
        "var.dlq_arn",
        "main.tf:7: cannot resolve var.dlq_arn: the variable has no default; "
        "pass queues_from_vars={'dlq_arn': ...}",
    ),
    ("var.nope", 'main.tf:7: cannot resolve var.nope: no variable "nope" is declared'),
    (
        "aws_lambda_function.worker.arn",
        "main.tf:7: cannot resolve aws_lambda_function.worker.arn: the fake reads only queue "
        "resources (aws_sqs_queue, yandex_message_queue) and aws_sns_topic ARNs",
    ),
    (
        "aws_sqs_queue.missing.arn",
        'main.tf:7: cannot resolve aws_sqs_queue.missing.arn: no aws_sqs_queue "missing" in '
        "the files read",
    ),
    (
        "aws_sqs_queue.dlq.owner",
        "main.tf:7: cannot resolve aws_sqs_queue.dlq.owner: aws_sqs_queue has no attribute "
        "owner the fake knows (arn, id, url, name or an argument set in the file)",
    ),
    (
        'cidrhost("10.0.0.0/8", 1)',
        'main.tf:7: cannot evaluate cidrhost("10.0.0.0/8", 1): function cidrhost is not '
        "supported; the fake knows coalesce, concat, format, join, jsondecode, jsonencode, "
        "keys, length, lookup, lower, max, merge, min, replace, tobool, tolist, tomap, "
        "tonumber, toset, tostring, trimprefix, trimsuffix, upper, values",
    ),
]


@pytest.mark.parametrize(("expression", "message"), UNRESOLVABLE, ids=[e for e, _ in UNRESOLVABLE])
def test_what_cannot_be_resolved_is_named_with_file_and_line(
    files: Files, expression: str, message: str
) -> None:
    files.write(
        "main.tf",
        f"""
        variable "dlq_arn" {{}}

        resource "aws_sqs_queue" "dlq" {{}}
        resource "aws_sqs_queue" "jobs" {{
          name = "jobs"
          redrive_policy = jsonencode({{
            deadLetterTargetArn = {expression}
            maxReceiveCount     = 5
          }})
        }}
        """,
    )

    assert files.error("main.tf") == message


def test_a_reference_inside_a_heredoc_names_its_own_line(files: Files) -> None:
    files.write(
        "main.tf",
        """
        resource "aws_sqs_queue" "jobs" {
          name   = "jobs"
          policy = <<EOT
        {
          "Resource": "${local.queue_arn}"
        }
        EOT
        }
        """,
    )

    assert files.error("main.tf") == (
        "main.tf:5: cannot resolve local.queue_arn: no locals block gives local.queue_arn a value"
    )


REFUSED = [
    (
        'name_prefix = "jobs-"',
        "main.tf:2: aws_sqs_queue.jobs: name_prefix gives the queue a random name a test cannot "
        "know; set name instead",
    ),
    (
        "count = 2",
        "main.tf:1: aws_sqs_queue.jobs: a queue made by count needs a name (Terraform would make "
        'random ones), e.g. name = "jobs-${count.index}"',
    ),
    (
        "count = -1",
        "main.tf:2: aws_sqs_queue.jobs: count must be a whole number, 0 or more; got -1",
    ),
    (
        'count = 1\n  for_each = toset(["a"])',
        "main.tf:1: aws_sqs_queue.jobs: count and for_each cannot both be set",
    ),
    (
        'for_each = ["a", 1]\n  name = "jobs-${each.key}"',
        "main.tf:2: aws_sqs_queue.jobs: for_each must be a map or a set of strings; got ['a', 1]",
    ),
    (
        'name = "jobs-${each.key}"',
        "main.tf:2: cannot resolve each.key: each.* is only known inside a resource with for_each",
    ),
    (
        'name = "jobs"\n  visibility_timeout = 30\n  sqs_managed_sse = true',
        "main.tf:1: aws_sqs_queue.jobs: unsupported arguments sqs_managed_sse, "
        "visibility_timeout; the fake reads content_based_deduplication, deduplication_scope, "
        "delay_seconds, fifo_queue, fifo_throughput_limit, kms_data_key_reuse_period_seconds, "
        "kms_master_key_id, max_message_size, message_retention_seconds, name, policy, "
        "receive_wait_time_seconds, redrive_allow_policy, redrive_policy, region, "
        "sqs_managed_sse_enabled, tags, visibility_timeout_seconds",
    ),
    (
        'name = "jobs-%{ if true }x%{ endif }"',
        'main.tf:2: cannot evaluate "jobs-%{ if true }x%{ endif }": template directives '
        "(%{if}, %{for}) are not supported in queue definitions",
    ),
    (
        'name = [for s in ["a"] : s][0]',
        'main.tf:2: cannot evaluate [for s in ["a"] : s]: for expressions are not supported in '
        "queue definitions",
    ),
    ('name = "jobs" {', "main.tf:2: not valid HCL (column 17)"),
]


@pytest.mark.parametrize(
    ("body", "message"), REFUSED, ids=[m.split(": ", 2)[-1][:30] for _, m in REFUSED]
)
def test_what_the_fake_refuses_says_why(files: Files, body: str, message: str) -> None:
    files.write("main.tf", f'resource "aws_sqs_queue" "jobs" {{\n  {body}\n}}\n')

    assert files.error("main.tf") == message


FOR_EACH = """
locals {
  services = ["billing", "shipping"]
  timeouts = { billing = 45, shipping = 90 }
}

resource "aws_sqs_queue" "dlq" {
  for_each = toset(local.services)
  name     = "acme-${each.key}-dlq"
}

resource "aws_sqs_queue" "work" {
  for_each                   = local.timeouts
  name                       = "acme-${each.key}"
  visibility_timeout_seconds = each.value
  tags                       = { service = each.key }
}

resource "aws_sqs_queue_redrive_policy" "work" {
  for_each  = aws_sqs_queue.work
  queue_url = aws_sqs_queue.work[each.key].id
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq[each.key].arn
    maxReceiveCount     = 3
  })
}

resource "aws_sqs_queue" "events" {
  count      = length(local.services)
  name       = "events-${count.index}.fifo"
  fifo_queue = true
}

resource "aws_sqs_queue" "audit" {
  name = "audit"
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq["billing"].arn
    maxReceiveCount     = aws_sqs_queue.work["shipping"].visibility_timeout_seconds / 10
  })
}
"""


def test_count_and_for_each_make_a_queue_per_instance(files: Files) -> None:
    files.write("main.tf", FOR_EACH)

    assert files.queues("main.tf") == {
        "acme-billing-dlq": {},
        "acme-shipping-dlq": {},
        "acme-billing": {
            "VisibilityTimeout": "45",
            "dlq": "acme-billing-dlq",
            "max_receive_count": 3,
            "tags": {"service": "billing"},
        },
        "acme-shipping": {
            "VisibilityTimeout": "90",
            "dlq": "acme-shipping-dlq",
            "max_receive_count": 3,
            "tags": {"service": "shipping"},
        },
        "events-0.fifo": {"FifoQueue": "true"},
        "events-1.fifo": {"FifoQueue": "true"},
        "audit": {"dlq": "acme-billing-dlq", "max_receive_count": 9},
    }


def test_count_and_for_each_in_tf_json(files: Files) -> None:
    files.write(
        "main.tf.json",
        json.dumps(
            {
                "resource": {
                    "aws_sqs_queue": {
                        "jobs": {"for_each": '${toset(["a", "b"])}', "name": "jobs-${each.key}"},
                        "shards": {"count": 2, "name": "shard-${count.index}"},
                    }
                }
            }
        ),
    )

    assert set(files.queues("main.tf.json")) == {"jobs-a", "jobs-b", "shard-0", "shard-1"}


def test_each_means_nothing_in_a_local_or_in_for_each_itself(files: Files) -> None:
    files.write(
        "main.tf",
        """
        locals {
          name = "jobs-${each.key}"
        }
        resource "aws_sqs_queue" "jobs" {
          for_each = toset(["a"])
          name     = local.name
        }
        """,
    )
    assert files.error("main.tf") == (
        "main.tf:2: cannot resolve each.key: each.* is only known inside a resource with for_each"
    )
    files.write(
        "main.tf",
        """
        resource "aws_sqs_queue" "jobs" {
          for_each = aws_sqs_queue.jobs
          name     = "jobs-${each.key}"
        }
        """,
    )
    assert files.error("main.tf") == (
        "main.tf:2: references form a cycle: aws_sqs_queue.jobs.for_each -> "
        "aws_sqs_queue.jobs.for_each"
    )


SPLATS = """
locals {
  teams = [{ name = "billing", retries = 3 }, { name = "shipping", retries = 5 }]
}

resource "aws_sqs_queue" "dlq" {
  count = length(local.teams)
  name  = "${local.teams[count.index].name}-dlq"
}

resource "aws_sqs_queue" "work" {
  count = length(local.teams)
  name  = local.teams[count.index].name
  redrive_policy = jsonencode({
    deadLetterTargetArn = (aws_sqs_queue.dlq[*].arn)[count.index]
    # The older splat: the index picks from the list of retries (HCL's spec).
    maxReceiveCount     = local.teams.*.retries[count.index]
  })
}

resource "aws_sqs_queue" "keyed" {
  for_each = toset(["a", "b"])
  name     = "keyed-${each.key}"
}

resource "aws_sqs_queue" "redrive_target" {
  name = "redrive-target"
  redrive_allow_policy = jsonencode({
    redrivePermission = "byQueue"
    sourceQueueArns   = concat(aws_sqs_queue.work[*].arn, values(aws_sqs_queue.keyed)[*].arn)
  })
  tags = { single = join(",", aws_sqs_queue.redrive_target_name[*].name), none = length(var.none[*]) }
}

resource "aws_sqs_queue" "redrive_target_name" {
  name = "only-one"
}

variable "none" {
  default = null
}
"""


def test_splat_expressions_read_each_element(files: Files) -> None:
    files.write("main.tf", SPLATS)

    queues = files.queues("main.tf")

    arn = "arn:aws:sqs:us-east-1:123456789012:{}".format
    assert queues["billing"] == {"dlq": "billing-dlq", "max_receive_count": 3}
    assert queues["shipping"] == {"dlq": "shipping-dlq", "max_receive_count": 5}
    target = queues["redrive-target"]
    assert json.loads(target["RedriveAllowPolicy"])["sourceQueueArns"] == [
        arn("billing"),
        arn("shipping"),
        arn("keyed-a"),
        arn("keyed-b"),
    ]
    # A value that is no list is a list of itself, and null an empty one, as in Terraform.
    assert target["tags"] == {"single": "only-one", "none": "0"}


def test_topics_made_by_count_and_for_each_give_policies_their_arns(files: Files) -> None:
    files.write(
        "main.tf",
        """
        locals {
          from_sns = {
            Effect    = "Allow"
            Principal = { Service = "sns.amazonaws.com" }
            Action    = "sqs:SendMessage"
          }
        }
        resource "aws_sns_topic" "events" {
          for_each = toset(["orders", "refunds"])
          name     = "shop-${each.key}"
        }
        resource "aws_sns_topic" "audit" {
          count = 2
          name  = "audit-${count.index}"
        }
        resource "aws_sqs_queue" "inbox" {
          for_each = aws_sns_topic.events
          name     = "${each.value.name}-inbox"
          policy = jsonencode({ Statement = [merge(local.from_sns, {
            Condition = { ArnEquals = { "aws:SourceArn" = aws_sns_topic.events[each.key].arn } }
          })] })
        }
        resource "aws_sqs_queue" "audit" {
          name = "audit"
          policy = jsonencode({ Statement = [merge(local.from_sns, {
            Condition = { ArnEquals = { "aws:SourceArn" = aws_sns_topic.audit[*].id } }
          })] })
        }
        """,
    )

    queues = files.queues("main.tf")

    def source_arns(queue: str) -> object:
        [statement] = json.loads(queues[queue]["Policy"])["Statement"]
        return statement["Condition"]["ArnEquals"]["aws:SourceArn"]

    topic = "arn:aws:sns:us-east-1:123456789012:{}".format
    assert source_arns("shop-orders-inbox") == topic("shop-orders")
    assert source_arns("shop-refunds-inbox") == topic("shop-refunds")
    assert source_arns("audit") == [topic("audit-0"), topic("audit-1")]

    main = files.root / "main.tf"
    main.write_text(main.read_text().replace("audit[*].id", "audit.arn"))
    assert files.error("main.tf").endswith(
        "cannot resolve aws_sns_topic.audit.arn: aws_sns_topic.audit has count set: name one "
        "of its topics, e.g. aws_sns_topic.audit[0].arn"
    )
    main.write_text(main.read_text().replace("audit.arn", "audit[0].owner"))
    assert files.error("main.tf").endswith(
        "cannot resolve aws_sns_topic.audit[0].owner: the fake knows an aws_sns_topic's arn, id "
        "and name only"
    )


REFERENCES_TO_INSTANCES = [
    (
        "aws_sqs_queue.many.arn",
        "main.tf:11: cannot resolve aws_sqs_queue.many.arn: aws_sqs_queue.many has count set: "
        "name one of its queues, e.g. aws_sqs_queue.many[0].arn",
    ),
    (
        "aws_sqs_queue.many[2].arn",
        "main.tf:11: cannot resolve aws_sqs_queue.many[2].arn: aws_sqs_queue.many (count) has "
        "no instance 2; its instances: aws_sqs_queue.many[0], aws_sqs_queue.many[1]",
    ),
    (
        'aws_sqs_queue.keyed["c"].arn',
        'main.tf:11: cannot resolve aws_sqs_queue.keyed["c"].arn: aws_sqs_queue.keyed '
        "(for_each) has no instance 'c'; its instances: aws_sqs_queue.keyed[\"a\"], "
        'aws_sqs_queue.keyed["b"]',
    ),
    (
        "count.index",
        "main.tf:11: cannot resolve count.index: count.* is only known inside a resource with count",
    ),
    (
        "aws_sqs_queue.keyed[*].arn",
        "main.tf:11: cannot resolve aws_sqs_queue.keyed[*].arn: a splat reads a list, and this is "
        "a map (a for_each resource is one): splat its values instead, "
        "values(aws_sqs_queue.keyed)[*]",
    ),
    (
        # Everything after [*] applies to each element: an ARN is a string, and has no [0].
        "aws_sqs_queue.many[*].arn[0]",
        "main.tf:11: cannot resolve aws_sqs_queue.many[*].arn[0]: a string has no 0: only lists, "
        "maps and objects take [...] or .name",
    ),
]


@pytest.mark.parametrize(
    ("reference", "message"), REFERENCES_TO_INSTANCES, ids=[r for r, _ in REFERENCES_TO_INSTANCES]
)
def test_a_reference_to_an_instance_names_the_instances_there_are(
    files: Files, reference: str, message: str
) -> None:
    files.write(
        "main.tf",
        f"""
        resource "aws_sqs_queue" "many" {{
          count = 2
          name  = "many-${{count.index}}"
        }}
        resource "aws_sqs_queue" "keyed" {{
          for_each = toset(["a", "b"])
          name     = "keyed-${{each.key}}"
        }}
        resource "aws_sqs_queue" "jobs" {{
          name   = "jobs"
          policy = {reference}
        }}
        """,
    )

    assert files.error("main.tf") == message


def test_a_queue_declared_twice_names_both_places(files: Files) -> None:
    files.write("a.tf", 'resource "aws_sqs_queue" "jobs" {\n  name = "jobs"\n}\n')
    files.write("b.tf", 'resource "aws_sqs_queue" "work" {\n  name = "jobs"\n}\n')

    assert files.error("a.tf", "b.tf") == (
        "b.tf:1: queue 'jobs' (aws_sqs_queue.work) is declared twice; "
        "first at a.tf:1 (aws_sqs_queue.jobs)"
    )


def test_a_missing_path_is_named(files: Files) -> None:
    assert files.error("infra/nope.tf") == "queues_from: infra/nope.tf does not exist"


def test_tfvars_files_set_variables_as_terraform_loads_them(files: Files) -> None:
    files.write(
        "infra/main.tf",
        """
        variable "env" {}
        variable "retries" {
          type = number
        }

        resource "aws_sqs_queue" "dlq" {
          name = "jobs-${var.env}-dlq"
        }

        resource "aws_sqs_queue" "jobs" {
          name = "jobs-${var.env}"
          redrive_policy = jsonencode({
            deadLetterTargetArn = aws_sqs_queue.dlq.arn
            maxReceiveCount     = var.retries + 1
          })
        }
        """,
    )
    files.write("infra/terraform.tfvars", 'env     = "dev"\nretries = 2\n')
    files.write("infra/zz.auto.tfvars", 'env = "auto"\n')
    files.write("prod.tfvars", 'env = "prod"\n')

    assert set(files.queues("infra")) == {"jobs-auto", "jobs-auto-dlq"}
    assert files.queues("infra", "prod.tfvars")["jobs-prod"]["max_receive_count"] == 3
    from_text = files.queues("infra", variables={"env": "ci", "retries": "4"})
    assert from_text["jobs-ci"]["max_receive_count"] == 5  # "4" as the number it is declared
    assert files.error("infra", variables={"retries": "many"}) == (
        "infra/main.tf:3: variable retries is a number; got 'many'"
    )


def test_names_built_from_each_other_are_a_cycle(files: Files) -> None:
    files.write(
        "main.tf",
        """
        resource "aws_sqs_queue" "a" {
          name = "${aws_sqs_queue.b.name}-a"
        }
        resource "aws_sqs_queue" "b" {
          name = "${aws_sqs_queue.a.name}-b"
        }
        """,
    )

    assert files.error("main.tf") == (
        "main.tf:2: references form a cycle: "
        "aws_sqs_queue.a.name -> aws_sqs_queue.b.name -> aws_sqs_queue.a.name"
    )
