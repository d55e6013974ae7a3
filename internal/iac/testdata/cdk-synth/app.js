const cdk = require('aws-cdk-lib');
const dynamodb = require('aws-cdk-lib/aws-dynamodb');
const app = new cdk.App({ outdir: 'cdk.out' });
const stack = new cdk.Stack(app, 'OrdersStack', { env: { region: 'us-east-1', account: '123456789012' } });
const table = new dynamodb.Table(stack, 'Orders', {
  tableName: 'orders',
  partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
  sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
  billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
  stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
  timeToLiveAttribute: 'expiresAt',
  removalPolicy: cdk.RemovalPolicy.DESTROY,
});
table.addGlobalSecondaryIndex({
  indexName: 'byStatus',
  partitionKey: { name: 'status', type: dynamodb.AttributeType.STRING },
  sortKey: { name: 'createdAt', type: dynamodb.AttributeType.NUMBER },
});
table.addLocalSecondaryIndex({
  indexName: 'byCreated',
  sortKey: { name: 'createdAt', type: dynamodb.AttributeType.NUMBER },
  projectionType: dynamodb.ProjectionType.KEYS_ONLY,
});
new dynamodb.TableV2(stack, 'Carts', {
  partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
  replicas: [{ region: 'eu-west-1' }],
  pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
});
new cdk.CfnOutput(stack, 'OrdersStream', { value: table.tableStreamArn });
app.synth();
