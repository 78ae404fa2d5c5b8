"""CloudFormation / SAM templates (YAML short and long forms) and `cdk synth` JSON into queues."""

from __future__ import annotations

import json

import pytest

from .conftest import Files

SAM = """
AWSTemplateFormatVersion: 2010-09-09
Transform: AWS::Serverless-2016-10-31
Parameters:
  Env:
    Type: String
    Default: dev
  MaxReceives:
    Type: Number
    Default: 5
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  OrdersDLQ:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Sub "orders-${Env}-dlq"
      MessageRetentionPeriod: 1209600
  Orders:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Sub orders-${Env}
      VisibilityTimeout: !If [IsProd, 60, 30]
      ReceiveMessageWaitTimeSeconds: 10
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt OrdersDLQ.Arn
        maxReceiveCount: !Ref MaxReceives
      Tags:
        - Key: team
          Value: orders
  Alerts:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: !Sub alerts-${Env}
  OrdersPolicy:
    Type: AWS::SQS::QueuePolicy
    Properties:
      Queues: [!Ref Orders]
      PolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {Service: sns.amazonaws.com}
            Action: sqs:SendMessage
            Resource: !GetAtt [Orders, Arn]
            Condition:
              ArnEquals:
                aws:SourceArn: !Ref Alerts
  Worker:
    Type: AWS::Serverless::Function
    Properties:
      Handler: app.handler
      Runtime: python3.12
      Events:
        Orders:
          Type: SQS
          Properties:
            Queue: !GetAtt Orders.Arn
            BatchSize: 10
"""

LONG_FORM = """
Parameters:
  Prefix:
    Type: String
Resources:
  Events:
    Type: AWS::SQS::Queue
    Properties:
      QueueName:
        Fn::Join: ["-", [{Ref: Prefix}, events.fifo]]
      FifoQueue: true
      ContentBasedDeduplication: true
      RedrivePolicy:
        deadLetterTargetArn:
          Fn::GetAtt: [EventsDLQ, Arn]
        maxReceiveCount: "3"
  EventsDLQ:
    Type: AWS::SQS::Queue
    DeletionPolicy: Retain
    Properties:
      FifoQueue: true
      RedriveAllowPolicy:
        redrivePermission: byQueue
        sourceQueueArns:
          - Fn::Sub: "arn:${AWS::Partition}:sqs:${AWS::Region}:${AWS::AccountId}:${Prefix}-events.fifo"
"""


def test_a_sam_template_in_short_form(files: Files) -> None:
    files.write("template.yaml", SAM)

    assert files.queues("template.yaml", variables={"Env": "ci"}) == {
        "orders-ci-dlq": {"MessageRetentionPeriod": "1209600"},
        "orders-ci": {
            "ReceiveMessageWaitTimeSeconds": "10",
            "VisibilityTimeout": "30",
            "Policy": json.dumps(
                {
                    "Version": "2012-10-17",
                    "Statement": [
                        {
                            "Effect": "Allow",
                            "Principal": {"Service": "sns.amazonaws.com"},
                            "Action": "sqs:SendMessage",
                            "Resource": "arn:aws:sqs:us-east-1:123456789012:orders-ci",
                            "Condition": {
                                "ArnEquals": {
                                    "aws:SourceArn": "arn:aws:sns:us-east-1:123456789012:alerts-ci"
                                }
                            },
                        }
                    ],
                },
                separators=(",", ":"),
            ),
            "dlq": "orders-ci-dlq",
            "max_receive_count": 5,
            "tags": {"team": "orders"},
        },
    }


def test_conditions_choose_values_and_parameters_defaults_apply(files: Files) -> None:
    files.write("template.yaml", SAM)

    assert (
        files.queues("template.yaml", variables={"Env": "prod"})["orders-prod"]["VisibilityTimeout"]
        == "60"
    )
    assert "orders-dev" in files.queues("template.yaml")


def test_a_template_in_long_form_with_a_logical_id_as_name(files: Files) -> None:
    files.write("stack.yml", LONG_FORM)

    assert files.queues("stack.yml", variables={"Prefix": "shop"}, region="eu-west-1") == {
        "shop-events.fifo": {
            "FifoQueue": "true",
            "ContentBasedDeduplication": "true",
            "dlq": "EventsDLQ.fifo",
            "max_receive_count": 3,
        },
        "EventsDLQ.fifo": {
            "FifoQueue": "true",
            "RedriveAllowPolicy": '{"redrivePermission":"byQueue","sourceQueueArns":'
            '["arn:aws:sqs:eu-west-1:123456789012:shop-events.fifo"]}',
        },
    }


CDK_SYNTH = {
    "Resources": {
        "OrdersDeadLetterQueue5B2E3A6C": {
            "Type": "AWS::SQS::Queue",
            "Properties": {"MessageRetentionPeriod": 1209600},
            "UpdateReplacePolicy": "Delete",
            "DeletionPolicy": "Delete",
            "Metadata": {"aws:cdk:path": "ShopStack/OrdersDeadLetterQueue/Resource"},
        },
        "OrdersQueue9C1F4E2A": {
            "Type": "AWS::SQS::Queue",
            "Properties": {
                "QueueName": "orders",
                "RedrivePolicy": {
                    "deadLetterTargetArn": {"Fn::GetAtt": ["OrdersDeadLetterQueue5B2E3A6C", "Arn"]},
                    "maxReceiveCount": 5,
                },
                "VisibilityTimeout": 30,
                "KmsMasterKeyId": "alias/aws/sqs",
            },
            "UpdateReplacePolicy": "Delete",
            "DeletionPolicy": "Delete",
            "Metadata": {"aws:cdk:path": "ShopStack/OrdersQueue/Resource"},
        },
        "OrdersQueuePolicy7D3B2C1A": {
            "Type": "AWS::SQS::QueuePolicy",
            "Properties": {
                "PolicyDocument": {
                    "Statement": [
                        {
                            "Action": "sqs:SendMessage",
                            "Effect": "Allow",
                            "Principal": {"Service": "events.amazonaws.com"},
                            "Resource": {"Fn::GetAtt": ["OrdersQueue9C1F4E2A", "Arn"]},
                        }
                    ],
                    "Version": "2012-10-17",
                },
                "Queues": [{"Ref": "OrdersQueue9C1F4E2A"}],
            },
            "Metadata": {"aws:cdk:path": "ShopStack/OrdersQueue/Policy/Resource"},
        },
        "CDKMetadata": {
            "Type": "AWS::CDK::Metadata",
            "Properties": {"Analytics": "v2:deflate64:H4sIAAAAAAAA"},
            "Condition": "CDKMetadataAvailable",
        },
    },
    "Conditions": {
        "CDKMetadataAvailable": {"Fn::Or": [{"Fn::Equals": [{"Ref": "AWS::Region"}, "us-east-1"]}]}
    },
    "Parameters": {
        "BootstrapVersion": {
            "Type": "AWS::SSM::Parameter::Value<String>",
            "Default": "/cdk-bootstrap/hnb659fds/version",
        }
    },
    "Rules": {"CheckBootstrapVersion": {"Assertions": []}},
}


def test_cdk_synth_output(files: Files) -> None:
    files.write("cdk.out/ShopStack.template.json", json.dumps(CDK_SYNTH, indent=1))

    assert files.queues("cdk.out/ShopStack.template.json") == {
        "OrdersDeadLetterQueue5B2E3A6C": {"MessageRetentionPeriod": "1209600"},
        "orders": {
            "VisibilityTimeout": "30",
            "KmsMasterKeyId": "alias/aws/sqs",
            "Policy": '{"Statement":[{"Action":"sqs:SendMessage","Effect":"Allow","Principal":'
            '{"Service":"events.amazonaws.com"},"Resource":'
            '"arn:aws:sqs:us-east-1:123456789012:orders"}],"Version":"2012-10-17"}',
            "dlq": "OrdersDeadLetterQueue5B2E3A6C",
            "max_receive_count": 5,
        },
    }


def test_a_queue_whose_condition_is_false_is_not_made(files: Files) -> None:
    files.write(
        "template.yaml",
        """
        Parameters:
          Env: {Type: String, Default: dev}
        Conditions:
          IsProd: !Equals [!Ref Env, prod]
          NotProd: !Not [!Condition IsProd]
        Resources:
          Audit:
            Type: AWS::SQS::Queue
            Condition: IsProd
          Scratch:
            Type: AWS::SQS::Queue
            Condition: NotProd
        """,
    )

    assert files.queues("template.yaml") == {"Scratch": {}}


UNRESOLVABLE = [
    (
        "!GetAtt Missing.Arn",
        'template.yaml:7: cannot resolve Fn::GetAtt: ["Missing", "Arn"]: no parameter or '
        "resource Missing in the template",
    ),
    (
        "!GetAtt Worker.Arn",
        'template.yaml:7: cannot resolve Fn::GetAtt: ["Worker", "Arn"]: Worker is a '
        "AWS::Lambda::Function; the fake reads only AWS::SQS::Queue resources (and "
        "AWS::SNS::Topic ARNs)",
    ),
    (
        "!GetAtt Dlq.QueueOwner",
        'template.yaml:7: cannot resolve Fn::GetAtt: ["Dlq", "QueueOwner"]: AWS::SQS::Queue has '
        "no attribute QueueOwner (it has Arn, QueueName, QueueUrl)",
    ),
    (
        "!Ref DlqArn",
        'template.yaml:7: cannot resolve Ref: "DlqArn": parameter DlqArn has no Default; '
        "pass queues_from_vars={'DlqArn': ...}",
    ),
    (
        "!Sub 'arn:aws:sqs:${AWS::Region}:${AWS::AccountId}:${AWS::StackName}-dlq'",
        'template.yaml:7: cannot resolve Fn::Sub: "arn:aws:sqs:${AWS::Region}:${AWS::AccountId}'
        ':${AWS::StackName}-dlq": the fake has no value for AWS::StackName; '
        "pass queues_from_vars={'AWS::StackName': ...}",
    ),
    (
        "!ImportValue shared-dlq-arn",
        'template.yaml:7: cannot resolve Fn::ImportValue: "shared-dlq-arn": Fn::ImportValue is '
        "not supported by the fake",
    ),
]


@pytest.mark.parametrize(("expression", "message"), UNRESOLVABLE, ids=[e for e, _ in UNRESOLVABLE])
def test_what_cannot_be_resolved_is_named_with_file_and_line(
    files: Files, expression: str, message: str
) -> None:
    files.write(
        "template.yaml",
        f"""
        Parameters: {{DlqArn: {{Type: String}}}}
        Resources:
          Jobs:
            Type: AWS::SQS::Queue
            Properties:
              RedrivePolicy:
                deadLetterTargetArn: {expression}
                maxReceiveCount: 5
          Dlq: {{Type: AWS::SQS::Queue}}
          Worker: {{Type: AWS::Lambda::Function}}
        """,
    )

    assert files.error("template.yaml") == message


def test_unsupported_properties_are_listed(files: Files) -> None:
    files.write(
        "template.yaml",
        """
        Resources:
          Jobs:
            Type: AWS::SQS::Queue
            Properties:
              QueueName: jobs
              VisibilityTimeoutSeconds: 30
              DelaySecond: 1
        """,
    )

    assert files.error("template.yaml") == (
        "template.yaml:3: Resources.Jobs: unsupported properties DelaySecond, "
        "VisibilityTimeoutSeconds; the fake reads ContentBasedDeduplication, DeduplicationScope, "
        "DelaySeconds, FifoQueue, FifoThroughputLimit, KmsDataKeyReusePeriodSeconds, "
        "KmsMasterKeyId, MaximumMessageSize, MessageRetentionPeriod, QueueName, "
        "ReceiveMessageWaitTimeSeconds, RedriveAllowPolicy, RedrivePolicy, SqsManagedSseEnabled, "
        "Tags, VisibilityTimeout"
    )


def test_a_file_that_is_not_a_template_says_so(files: Files) -> None:
    files.write("queues.yaml", "orders:\n  VisibilityTimeout: 30\n")
    files.write("broken.yaml", "Resources:\n  Jobs: [\n")

    assert files.error("queues.yaml") == (
        "queues.yaml: not a CloudFormation template (no Resources section)"
    )
    assert files.error("broken.yaml") == (
        "broken.yaml:3: not a valid template (expected the node content, but found '<stream end>')"
    )


def test_queue_names_built_from_each_other_are_a_cycle(files: Files) -> None:
    files.write(
        "template.yaml",
        """
        Resources:
          A:
            Type: AWS::SQS::Queue
            Properties:
              QueueName: !Sub "${B.QueueName}-a"
          B:
            Type: AWS::SQS::Queue
            Properties:
              QueueName:
                Fn::Join: ["", [{"Fn::GetAtt": "A.QueueName"}, "-b"]]
        """,
    )

    assert files.error("template.yaml") == "template.yaml:5: QueueNames form a cycle: A -> B -> A"


def test_mappings_select_split_novalue_and_an_inline_policy(files: Files) -> None:
    files.write(
        "template.json",
        json.dumps(
            {
                "Parameters": {"Stage": {"Type": "String", "Default": "prod"}},
                "Mappings": {"Timeouts": {"prod": {"Visibility": 120}, "dev": {"Visibility": 5}}},
                "Resources": {
                    "Jobs": {
                        "Type": "AWS::SQS::Queue",
                        "Properties": {
                            "QueueName": {
                                "Fn::Select": [0, {"Fn::Split": [".", "jobs.example.com"]}]
                            },
                            "VisibilityTimeout": {
                                "Fn::FindInMap": ["Timeouts", {"Ref": "Stage"}, "Visibility"]
                            },
                            "DelaySeconds": {"Ref": "AWS::NoValue"},
                        },
                    },
                    "JobsPolicy": {
                        "Type": "AWS::SQS::QueueInlinePolicy",
                        "Properties": {
                            "Queue": {"Fn::GetAtt": ["Jobs", "QueueUrl"]},
                            "PolicyDocument": {
                                "Statement": [
                                    {
                                        "Effect": "Deny",
                                        "Principal": "*",
                                        "Action": "sqs:*",
                                        "Resource": {"Fn::GetAtt": ["Jobs", "Arn"]},
                                    }
                                ]
                            },
                        },
                    },
                },
            }
        ),
    )

    assert files.queues("template.json") == {
        "jobs": {
            "VisibilityTimeout": "120",
            "Policy": '{"Statement":[{"Effect":"Deny","Principal":"*","Action":"sqs:*",'
            '"Resource":"arn:aws:sqs:us-east-1:123456789012:jobs"}]}',
        }
    }
