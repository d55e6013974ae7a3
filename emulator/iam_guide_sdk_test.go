package emulator

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"
)

// The documented example policies, each request allowed or denied as
// its page says (the page's sentence beside it), through the AWS SDK
// for Go against the emulator in the policy mode:
//
//   - the developer guide's "Using IAM policy conditions for
//     fine-grained access control" (specifying-conditions.html): the
//     overview's GameRole policy and examples 1 to 5;
//   - the developer guide's "IAM security policies with PartiQL for
//     DynamoDB" (ql-iam.html);
//   - the developer guide's "Using IAM with DynamoDB transactions"
//     (transaction-apis-iam.html);
//   - the developer guide's "Using attribute-based access control with
//     DynamoDB" examples (abac-example-use-cases.html), example 1;
//   - the IAM User Guide's DynamoDB examples "Allows item-level access
//     to DynamoDB based on an Amazon Cognito ID" and "Allows access to
//     specific attributes" (the multi-tenant LeadingKeys pattern).
//
// The pages' policies are used as written but for their resources'
// region and account (us-west-2:123456789012 reads *:*, guidePolicy):
// the emulator's ARNs carry us-east-1 and 000000000000. The web
// identities' user ids (${www.amazon.com:user_id},
// ${graph.facebook.com:id}, ${cognito-identity.amazonaws.com:sub}) are
// the identity's keys. A denied read returns nothing; an allowed one
// returns only the attributes the policy names (visible).

const (
	gamerKey    = "GAMERKEY00000001"
	gamerARN    = "arn:aws:iam::000000000000:user/gamer"
	amazonID    = "amzn1.account.ALICE"
	facebookID  = "fb-alice"
	cognitoID   = "us-east-1:alice-cognito"
	otherPlayer = "amzn1.account.BOB"
	meteor      = "Meteor Blasters"
)

// guideEnv is an emulator in the policy mode with the pages' tables:
// GameScores (UserId, GameTitle; index TopScoreDateTimeIndex on
// GameTitle, TopScoreDateTime projecting Wins, Losses, Attempts), Music,
// WatchList, table01, table04, MyTable and myMusicTable (tagged
// environment: staging).
type guideEnv struct {
	e          *Emulator
	root, user *dynamodb.Client
}

func newGuideIAMEnv(t *testing.T) *guideEnv {
	t.Helper()
	creds := []Credential{
		{AccessKeyID: iamRoot, SecretAccessKey: iamSecret, Namespace: "acct"},
		{AccessKeyID: gamerKey, SecretAccessKey: iamSecret, Namespace: "acct"},
	}
	e := newIAMEmulator(t, Options{Credentials: creds, IAM: &IAMPolicies{}})
	_, addr := startServer(t, e, ServerOptions{})
	g := &guideEnv{e: e, root: iamClient(addr, iamRoot), user: iamClient(addr, gamerKey)}
	table := func(name, pk, sk string, gsi *types.GlobalSecondaryIndex, tags ...types.Tag) {
		defs := []types.AttributeDefinition{{AttributeName: aws.String(pk), AttributeType: "S"}}
		keys := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: "HASH"}}
		if sk != "" {
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(sk), AttributeType: "S"})
			keys = append(keys, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: "RANGE"})
		}
		in := &dynamodb.CreateTableInput{TableName: aws.String(name), AttributeDefinitions: defs, KeySchema: keys,
			BillingMode: types.BillingModePayPerRequest, Tags: tags}
		if gsi != nil {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("TopScoreDateTime"), AttributeType: "S"})
			in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{*gsi}
		}
		_, err := g.root.CreateTable(ctxBG, in)
		require.NoError(t, err)
	}
	table("GameScores", "UserId", "GameTitle", &types.GlobalSecondaryIndex{IndexName: aws.String("TopScoreDateTimeIndex"),
		KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("GameTitle"), KeyType: "HASH"},
			{AttributeName: aws.String("TopScoreDateTime"), KeyType: "RANGE"}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"Wins", "Losses", "Attempts"}}})
	table("Music", "Artist", "SongTitle", nil)
	table("WatchList", "Id", "", nil)
	table("table01", "id", "", nil)
	table("table04", "id", "", nil)
	table("MyTable", "UserId", "", nil)
	table("myMusicTable", "id", "", nil, types.Tag{Key: aws.String("environment"), Value: aws.String("staging")})
	table("otherTable", "id", "", nil, types.Tag{Key: aws.String("environment"), Value: aws.String("production")})
	scores := func(user, game string, extra map[string]types.AttributeValue) {
		item := map[string]types.AttributeValue{"UserId": s(user), "GameTitle": s(game), "Wins": gN("4"), "Losses": gN("5"),
			"TopScore": gN("1000"), "TopScoreDateTime": s("2026-01-01T10:00:00"), "Attempts": gN("9"),
			"FreeGamesAvailable": gN("2"), "BossLevelUnlocked": &types.AttributeValueMemberBOOL{Value: true},
			"PersonalDetails": s("hidden")}
		for k, v := range extra {
			item[k] = v
		}
		g.rootPut(t, "GameScores", item)
	}
	scores(amazonID, meteor, nil)
	scores(otherPlayer, meteor, nil)
	scores(facebookID, meteor, map[string]types.AttributeValue{"attribute-A": s("a"), "attribute-B": s("b"), "attribute-C": s("hidden")})
	g.rootPut(t, "Music", map[string]types.AttributeValue{"Artist": s("Acme Band"), "SongTitle": s("Happy Day"), "AlbumTitle": s("Songs")})
	g.rootPut(t, "WatchList", map[string]types.AttributeValue{"Id": s("w1"), "Title": s("Film")})
	g.rootPut(t, "MyTable", map[string]types.AttributeValue{"UserId": s(cognitoID), "Note": s("mine")})
	g.rootPut(t, "MyTable", map[string]types.AttributeValue{"UserId": s("us-east-1:bob-cognito"), "Note": s("his")})
	for _, tn := range []string{"table01", "table04"} {
		g.rootPut(t, tn, map[string]types.AttributeValue{"id": s("1"), "v": s("x")})
	}
	return g
}

func (g *guideEnv) rootPut(t *testing.T, table string, item map[string]types.AttributeValue) {
	t.Helper()
	_, err := g.root.PutItem(ctxBG, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
	require.NoError(t, err)
}

// guidePolicy is a page's policy document with its resources' region
// and account made the emulator's (any).
func guidePolicy(doc string) string {
	return strings.ReplaceAll(doc, "arn:aws:dynamodb:us-west-2:123456789012:", "arn:aws:dynamodb:*:*:")
}

// use gives the gamer the page's policy, and the web identities' ids.
func (g *guideEnv) use(t *testing.T, doc string) {
	t.Helper()
	require.NoError(t, g.e.SetIAMPolicies(&IAMPolicies{Identities: []IAMIdentity{{
		AccessKeyID: gamerKey, ARN: gamerARN, Policies: []json.RawMessage{json.RawMessage(guidePolicy(doc))},
		Keys: map[string]string{"www.amazon.com:user_id": amazonID, "graph.facebook.com:id": facebookID,
			"cognito-identity.amazonaws.com:sub": cognitoID},
	}}}))
}

// guideCase is one request of a page's example: allowed, or denied
// with AccessDeniedException naming action.
type guideCase struct {
	name    string
	run     func() ([]map[string]types.AttributeValue, error)
	allowed bool
	action  string
}

// check runs the cases: an allowed one returns only attributes of
// visible (nil: any), a denied one AccessDeniedException for its
// action, and nothing else.
func check(t *testing.T, visible []string, cases []guideCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			items, err := tc.run()
			if !tc.allowed {
				var ae smithy.APIError
				require.True(t, errors.As(err, &ae), "got %v, want AccessDeniedException", err)
				require.Equal(t, "AccessDeniedException", ae.ErrorCode(), ae.ErrorMessage())
				require.Contains(t, ae.ErrorMessage(), "perform: dynamodb:"+tc.action+" on resource")
				require.Empty(t, items, "a denied request returns nothing")
				return
			}
			require.NoError(t, err)
			if visible == nil {
				return
			}
			for _, it := range items {
				for name := range it {
					require.Contains(t, visible, name, "a hidden attribute was returned")
				}
			}
		})
	}
}

// One request of each kind on GameScores, with the knobs the examples
// turn.

func ownKey(user string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"UserId": s(user), "GameTitle": s(meteor)}
}

// getItem is a GetItem of user's score with the projection proj ("":
// whole).
func (g *guideEnv) getItem(user, proj string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		in := &dynamodb.GetItemInput{TableName: aws.String("GameScores"), Key: ownKey(user)}
		if proj != "" {
			in.ProjectionExpression = aws.String(proj)
			in.ExpressionAttributeNames = placeholders(proj)
		}
		out, err := g.user.GetItem(ctxBG, in)
		if err != nil {
			return nil, err
		}
		return []map[string]types.AttributeValue{out.Item}, nil
	}
}

// placeholders are the names of #-placeholders of an expression whose
// placeholder is the attribute's name with its dashes dropped.
func placeholders(expr string) map[string]string {
	var m map[string]string
	for _, f := range strings.FieldsFunc(expr, func(r rune) bool { return r == ',' || r == ' ' || r == '(' || r == ')' }) {
		if strings.HasPrefix(f, "#") {
			if m == nil {
				m = map[string]string{}
			}
			m[f] = strings.ReplaceAll(strings.TrimPrefix(f, "#"), "_", "-")
		}
	}
	return m
}

// query is a Query of user's partition (or, on index, of meteor's).
func (g *guideEnv) query(user, index, proj string, sel types.Select, filter string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		in := &dynamodb.QueryInput{TableName: aws.String("GameScores"), Select: sel,
			KeyConditionExpression:    aws.String("UserId = :k"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":k": s(user)}}
		if index != "" {
			in.IndexName, in.KeyConditionExpression = aws.String(index), aws.String("GameTitle = :k")
			in.ExpressionAttributeValues[":k"] = s(meteor)
		}
		if proj != "" {
			in.ProjectionExpression = aws.String(proj)
		}
		if filter != "" {
			in.FilterExpression = aws.String(filter)
			in.ExpressionAttributeValues[":n"] = gN("1")
		}
		out, err := g.user.Query(ctxBG, in)
		if err != nil {
			return nil, err
		}
		return out.Items, nil
	}
}

// scan is a Scan of GameScores.
func (g *guideEnv) scan(proj string, sel types.Select, filter string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		in := &dynamodb.ScanInput{TableName: aws.String("GameScores"), Select: sel}
		if proj != "" {
			in.ProjectionExpression = aws.String(proj)
		}
		if filter != "" {
			in.FilterExpression = aws.String(filter)
			in.ExpressionAttributeValues = map[string]types.AttributeValue{":n": gN("1")}
		}
		out, err := g.user.Scan(ctxBG, in)
		if err != nil {
			return nil, err
		}
		return out.Items, nil
	}
}

// batchGet is a BatchGetItem of user's score with the projection proj.
func (g *guideEnv) batchGet(user, proj string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		ka := types.KeysAndAttributes{Keys: []map[string]types.AttributeValue{ownKey(user)}}
		if proj != "" {
			ka.ProjectionExpression = aws.String(proj)
			ka.ExpressionAttributeNames = placeholders(proj)
		}
		out, err := g.user.BatchGetItem(ctxBG, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{"GameScores": ka}})
		if err != nil {
			return nil, err
		}
		return out.Responses["GameScores"], nil
	}
}

// update is an UpdateItem of user's score: SET attr = :v, with a
// condition (cond, "": none) and ReturnValues rv.
func (g *guideEnv) update(user, attr, cond string, rv types.ReturnValue) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		in := &dynamodb.UpdateItemInput{TableName: aws.String("GameScores"), Key: ownKey(user), ReturnValues: rv,
			UpdateExpression:          aws.String("SET #a = :v"),
			ExpressionAttributeNames:  map[string]string{"#a": attr},
			ExpressionAttributeValues: map[string]types.AttributeValue{":v": s("new")}}
		if attr == "Wins" || attr == "TopScore" {
			in.ExpressionAttributeValues[":v"] = gN("7")
		}
		if cond != "" {
			in.ConditionExpression = aws.String(cond)
			for k, v := range placeholders(cond) {
				in.ExpressionAttributeNames[k] = v
			}
		}
		out, err := g.user.UpdateItem(ctxBG, in)
		if err != nil {
			return nil, err
		}
		return []map[string]types.AttributeValue{out.Attributes}, nil
	}
}

// put is a PutItem of user's score holding attrs (string values).
func (g *guideEnv) put(user string, attrs ...string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		item := ownKey(user)
		item["GameTitle"] = s("Put Game")
		for _, a := range attrs {
			item[a] = s("v")
		}
		_, err := g.user.PutItem(ctxBG, &dynamodb.PutItemInput{TableName: aws.String("GameScores"), Item: item})
		return nil, err
	}
}

// deleteItem is a DeleteItem of user's score of a game nobody played.
func (g *guideEnv) deleteItem(user string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		_, err := g.user.DeleteItem(ctxBG, &dynamodb.DeleteItemInput{TableName: aws.String("GameScores"),
			Key: map[string]types.AttributeValue{"UserId": s(user), "GameTitle": s("Never Played")}})
		return nil, err
	}
}

// batchWrite is a BatchWriteItem putting a score of user.
func (g *guideEnv) batchWrite(user string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		_, err := g.user.BatchWriteItem(ctxBG, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"GameScores": {
			{PutRequest: &types.PutRequest{Item: map[string]types.AttributeValue{"UserId": s(user), "GameTitle": s("Batch Game"), "Wins": gN("1")}}}}}})
		return nil, err
	}
}

// TestIAMGuideGameRole: the overview's policy (specifying-conditions,
// "Permissions use case", AllowAccessToOnlyItemsMatchingUserID).
func TestIAMGuideGameRole(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Sid":"AllowAccessToOnlyItemsMatchingUserID","Effect":"Allow",
		"Action":["dynamodb:GetItem","dynamodb:BatchGetItem","dynamodb:Query","dynamodb:PutItem","dynamodb:UpdateItem","dynamodb:DeleteItem","dynamodb:BatchWriteItem"],
		"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${www.amazon.com:user_id}"],
			"dynamodb:Attributes":["UserId","GameTitle","Wins","Losses","TopScore","TopScoreDateTime"]},
			"StringEqualsIfExists":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES"}}}]}`)
	visible := []string{"UserId", "GameTitle", "Wins", "Losses", "TopScore", "TopScoreDateTime"}
	check(t, visible, []guideCase{
		// "dynamodb:LeadingKeys – This condition key allows users to
		// access only the items where the partition key value matches
		// their user ID."
		{"GetItem own item, listed attributes", g.getItem(amazonID, "Wins, TopScore"), true, "GetItem"},
		{"GetItem another player's item", g.getItem(otherPlayer, "Wins, TopScore"), false, "GetItem"},
		{"Query own partition, listed attributes", g.query(amazonID, "", "Wins, Losses", "", ""), true, "Query"},
		{"BatchGetItem own item, listed attributes", g.batchGet(amazonID, "TopScore"), true, "BatchGetItem"},
		{"PutItem own item of listed attributes", g.put(amazonID, "Wins"), true, "PutItem"},
		{"UpdateItem own Wins", g.update(amazonID, "Wins", "", ""), true, "UpdateItem"},
		{"DeleteItem own item", g.deleteItem(amazonID), true, "DeleteItem"},
		{"BatchWriteItem own item", g.batchWrite(amazonID), true, "BatchWriteItem"},
		{"BatchWriteItem another player's item", g.batchWrite(otherPlayer), false, "BatchWriteItem"},
		// "dynamodb:Attributes – This condition key limits access to the
		// specified attributes so that only the actions listed in the
		// permissions policy can return values for these attributes."
		{"GetItem naming a hidden attribute", g.getItem(amazonID, "Wins, PersonalDetails"), false, "GetItem"},
		{"PutItem of a hidden attribute", g.put(amazonID, "PersonalDetails"), false, "PutItem"},
		{"UpdateItem of a hidden attribute", g.update(amazonID, "PersonalDetails", "", ""), false, "UpdateItem"},
		// "In addition, the StringEqualsIfExists clause ensures that the
		// app must always provide a list of specific attributes to act
		// upon and that the app can't request all attributes."
		{"GetItem of the whole item", g.getItem(amazonID, ""), false, "GetItem"},
		{"Query of whole items", g.query(amazonID, "", "", "", ""), false, "Query"},
		{"Query Select ALL_ATTRIBUTES", g.query(amazonID, "", "", types.SelectAllAttributes, ""), false, "Query"},
		{"BatchGetItem of the whole item", g.batchGet(amazonID, ""), false, "BatchGetItem"},
	})
}

// TestIAMGuidePartitionKeyValue: "1: Grant permissions that limit access to
// items with a specific partition key value", and its read-only form.
func TestIAMGuidePartitionKeyValue(t *testing.T) {
	g := newGuideIAMEnv(t)
	actions := `"dynamodb:GetItem","dynamodb:BatchGetItem","dynamodb:Query","dynamodb:PutItem","dynamodb:UpdateItem","dynamodb:DeleteItem","dynamodb:BatchWriteItem"`
	doc := func(sid, actions string) string {
		return `{"Version":"2012-10-17","Statement":[{"Sid":"` + sid + `","Effect":"Allow","Action":[` + actions + `],
			"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores"],
			"Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${www.amazon.com:user_id}"]}}}]}`
	}
	g.use(t, doc("FullAccessToUserItems", actions))
	check(t, nil, []guideCase{
		// "It uses the dynamodb:LeadingKeys condition key to limit user
		// actions only on the items whose UserID partition key value
		// matches the Login with Amazon unique user ID for this app."
		{"GetItem own item", g.getItem(amazonID, ""), true, "GetItem"},
		{"Query own partition", g.query(amazonID, "", "", "", ""), true, "Query"},
		{"BatchGetItem own item", g.batchGet(amazonID, ""), true, "BatchGetItem"},
		{"PutItem own item", g.put(amazonID, "Wins", "PersonalDetails"), true, "PutItem"},
		{"UpdateItem own item", g.update(amazonID, "Wins", "", ""), true, "UpdateItem"},
		{"DeleteItem own item", g.deleteItem(amazonID), true, "DeleteItem"},
		{"BatchWriteItem own item", g.batchWrite(amazonID), true, "BatchWriteItem"},
		{"GetItem another player's item", g.getItem(otherPlayer, ""), false, "GetItem"},
		{"Query another player's partition", g.query(otherPlayer, "", "", "", ""), false, "Query"},
		{"PutItem another player's item", g.put(otherPlayer, "Wins"), false, "PutItem"},
		{"UpdateItem another player's item", g.update(otherPlayer, "Wins", "", ""), false, "UpdateItem"},
		{"DeleteItem another player's item", g.deleteItem(otherPlayer), false, "DeleteItem"},
		{"BatchGetItem another player's item", g.batchGet(otherPlayer, ""), false, "BatchGetItem"},
		// "The list of actions does not include permissions for Scan
		// because Scan returns all items regardless of the leading
		// keys."
		{"Scan", g.scan("", "", ""), false, "Scan"},
	})
	// "To implement read-only access, you can remove any actions that
	// can modify the data."
	g.use(t, doc("ReadOnlyAccessToUserItems", `"dynamodb:GetItem","dynamodb:BatchGetItem","dynamodb:Query"`))
	check(t, nil, []guideCase{
		{"read-only: GetItem own item", g.getItem(amazonID, ""), true, "GetItem"},
		{"read-only: Query own partition", g.query(amazonID, "", "", "", ""), true, "Query"},
		{"read-only: PutItem own item", g.put(amazonID, "Wins"), false, "PutItem"},
		{"read-only: UpdateItem own item", g.update(amazonID, "Wins", "", ""), false, "UpdateItem"},
	})
}

// specificAttributes is example 2's policy with its actions and operator (the
// page's variations change both).
func specificAttributes(actions, op string, withRV bool) string {
	rv := ""
	if withRV {
		rv = `,"dynamodb:ReturnValues":["NONE","UPDATED_OLD","UPDATED_NEW"]`
	}
	sel := `"dynamodb:Select":"SPECIFIC_ATTRIBUTES"`
	if actions == `"dynamodb:UpdateItem"` {
		sel, rv = rv[1:], ""
	}
	return `{"Version":"2012-10-17","Statement":[{"Sid":"LimitAccessToSpecificAttributes","Effect":"Allow","Action":[` + actions + `],
		"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:Attributes":["UserId","TopScore"]},
			"` + op + `":{` + sel + rv + `}}}]}`
}

// TestIAMGuideSpecificAttributes: "2: Grant permissions that limit access to
// specific attributes in a table", and the page's read-only and
// write-only variations.
func TestIAMGuideSpecificAttributes(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, specificAttributes(`"dynamodb:UpdateItem","dynamodb:GetItem","dynamodb:Query","dynamodb:BatchGetItem","dynamodb:Scan"`, "StringEqualsIfExists", true))
	visible := []string{"UserId", "TopScore"}
	check(t, visible, []guideCase{
		// "The following permissions policy allows access to only two
		// specific attributes in a table by adding the
		// dynamodb:Attributes condition key. These attributes can be
		// read, written, or evaluated in a conditional write or scan
		// filter."
		{"GetItem TopScore", g.getItem(amazonID, "TopScore"), true, "GetItem"},
		{"GetItem another player's TopScore (no LeadingKeys)", g.getItem(otherPlayer, "UserId, TopScore"), true, "GetItem"},
		{"Query TopScore", g.query(amazonID, "", "UserId, TopScore", "", ""), true, "Query"},
		{"BatchGetItem TopScore", g.batchGet(amazonID, "TopScore"), true, "BatchGetItem"},
		{"Scan TopScore filtered on TopScore", g.scan("UserId, TopScore", "", "TopScore > :n"), true, "Scan"},
		{"Scan Select SPECIFIC_ATTRIBUTES", g.scan("TopScore", types.SelectSpecificAttributes, ""), true, "Scan"},
		{"UpdateItem TopScore", g.update(amazonID, "TopScore", "", ""), true, "UpdateItem"},
		{"UpdateItem TopScore if TopScore exists", g.update(amazonID, "TopScore", "attribute_exists(TopScore)", types.ReturnValueUpdatedNew), true, "UpdateItem"},
		{"GetItem Wins", g.getItem(amazonID, "Wins"), false, "GetItem"},
		{"Scan filtered on a hidden attribute", g.scan("TopScore", "", "Wins > :n"), false, "Scan"},
		{"Query filtered on a hidden attribute", g.query(amazonID, "", "TopScore", "", "Wins > :n"), false, "Query"},
		{"UpdateItem Wins", g.update(amazonID, "Wins", "", ""), false, "UpdateItem"},
		{"UpdateItem conditioned on a hidden attribute", g.update(amazonID, "TopScore", "attribute_not_exists(Wins)", ""), false, "UpdateItem"},
		// "If the user specifies the Select parameter, then its value
		// must be SPECIFIC_ATTRIBUTES. This requirement prevents the API
		// action from returning any attributes that aren't allowed, such
		// as from an index projection."
		{"Query Select ALL_ATTRIBUTES", g.query(amazonID, "", "", types.SelectAllAttributes, ""), false, "Query"},
		{"Scan without a projection", g.scan("", "", ""), false, "Scan"},
		{"GetItem without a projection", g.getItem(amazonID, ""), false, "GetItem"},
		// "If the user specifies the ReturnValues parameter, then its
		// value must be NONE, UPDATED_OLD, or UPDATED_NEW."
		{"UpdateItem ReturnValues ALL_NEW", g.update(amazonID, "TopScore", "", types.ReturnValueAllNew), false, "UpdateItem"},
		{"UpdateItem ReturnValues UPDATED_OLD", g.update(amazonID, "TopScore", "", types.ReturnValueUpdatedOld), true, "UpdateItem"},
		// "This policy doesn't permit PutItem, DeleteItem, or
		// BatchWriteItem."
		{"PutItem", g.put(amazonID, "TopScore"), false, "PutItem"},
		{"DeleteItem", g.deleteItem(amazonID), false, "DeleteItem"},
		{"BatchWriteItem", g.batchWrite(amazonID), false, "BatchWriteItem"},
	})
	// "To allow only read actions, you can remove UpdateItem from the
	// list of allowed actions. [...] You can also change
	// StringEqualsIfExists to StringEquals because the Select parameter
	// always has a value (ALL_ATTRIBUTES, unless otherwise specified)."
	g.use(t, specificAttributes(`"dynamodb:GetItem","dynamodb:Query","dynamodb:BatchGetItem","dynamodb:Scan"`, "StringEquals", false))
	check(t, visible, []guideCase{
		{"read only: GetItem TopScore", g.getItem(amazonID, "TopScore"), true, "GetItem"},
		{"read only: BatchGetItem TopScore", g.batchGet(amazonID, "TopScore"), true, "BatchGetItem"},
		{"read only: Query TopScore", g.query(amazonID, "", "TopScore", "", ""), true, "Query"},
		{"read only: Scan TopScore", g.scan("TopScore", "", ""), true, "Scan"},
		{"read only: GetItem whole item", g.getItem(amazonID, ""), false, "GetItem"},
		{"read only: BatchGetItem whole item", g.batchGet(amazonID, ""), false, "BatchGetItem"},
		{"read only: Query Select COUNT", g.query(amazonID, "", "", types.SelectCount, ""), false, "Query"},
	})
	// "To allow only write actions, you can remove everything except
	// UpdateItem from the list of allowed actions. [...] You must also
	// change StringEqualsIfExists to StringEquals because the
	// ReturnValues parameter always has a value (NONE unless otherwise
	// specified)."
	g.use(t, specificAttributes(`"dynamodb:UpdateItem"`, "StringEquals", true))
	check(t, visible, []guideCase{
		{"write only: UpdateItem TopScore", g.update(amazonID, "TopScore", "", ""), true, "UpdateItem"},
		{"write only: UpdateItem ReturnValues UPDATED_NEW", g.update(amazonID, "TopScore", "", types.ReturnValueUpdatedNew), true, "UpdateItem"},
		{"write only: UpdateItem ReturnValues ALL_OLD", g.update(amazonID, "TopScore", "", types.ReturnValueAllOld), false, "UpdateItem"},
		{"write only: GetItem TopScore", g.getItem(amazonID, "TopScore"), false, "GetItem"},
	})
}

// TestIAMGuidePreventUpdates: "3: Grant permissions to prevent updates on
// certain attributes".
func TestIAMGuidePreventUpdates(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Sid":"PreventUpdatesOnCertainAttributes","Effect":"Allow",
		"Action":["dynamodb:UpdateItem"],"Resource":"arn:aws:dynamodb:us-west-2:123456789012:table/GameScores",
		"Condition":{"ForAllValues:StringNotLike":{"dynamodb:Attributes":["FreeGamesAvailable","BossLevelUnlocked"]},
			"StringEquals":{"dynamodb:ReturnValues":["NONE","UPDATED_OLD","UPDATED_NEW"]}}}]}`)
	check(t, nil, []guideCase{
		// "The following permissions policy limits user access to
		// updating only the specific attributes identified by the
		// dynamodb:Attributes condition key. The StringNotLike condition
		// prevents an application from updating the attributes
		// specified using the dynamodb:Attributes condition key."
		{"UpdateItem Wins", g.update(amazonID, "Wins", "", ""), true, "UpdateItem"},
		{"UpdateItem another player's Wins (no LeadingKeys)", g.update(otherPlayer, "Wins", "", ""), true, "UpdateItem"},
		{"UpdateItem FreeGamesAvailable", g.update(amazonID, "FreeGamesAvailable", "", ""), false, "UpdateItem"},
		{"UpdateItem BossLevelUnlocked", g.update(amazonID, "BossLevelUnlocked", "", ""), false, "UpdateItem"},
		// "The condition key restricts ReturnValues in the request to
		// specify only NONE, UPDATED_OLD, or UPDATED_NEW and doesn't
		// include ALL_OLD or ALL_NEW."
		{"UpdateItem ReturnValues UPDATED_OLD", g.update(amazonID, "Wins", "", types.ReturnValueUpdatedOld), true, "UpdateItem"},
		{"UpdateItem ReturnValues ALL_OLD", g.update(amazonID, "Wins", "", types.ReturnValueAllOld), false, "UpdateItem"},
		{"UpdateItem ReturnValues ALL_NEW", g.update(amazonID, "Wins", "", types.ReturnValueAllNew), false, "UpdateItem"},
		// "The PutItem and DeleteItem actions replace an entire item
		// [...] you should not grant permission for these APIs."
		{"PutItem", g.put(amazonID, "Wins"), false, "PutItem"},
		{"DeleteItem", g.deleteItem(amazonID), false, "DeleteItem"},
	})
}

// TestIAMGuideIndexProjection: "4: Grant permissions to query only projected
// attributes in an index", both of its policies.
func TestIAMGuideIndexProjection(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Sid":"QueryOnlyProjectedIndexAttributes","Effect":"Allow",
		"Action":["dynamodb:Query"],"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores/index/TopScoreDateTimeIndex"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:Attributes":["TopScoreDateTime","GameTitle","Wins","Losses","Attempts"]},
			"StringEquals":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES"}}}]}`)
	index := "TopScoreDateTimeIndex"
	check(t, []string{"TopScoreDateTime", "GameTitle", "Wins", "Losses", "Attempts"}, []guideCase{
		// "To require the application to specify a list of attributes
		// in the query, the policy also specifies the dynamodb:Select
		// condition key to require that the Select parameter of the
		// DynamoDB Query action is SPECIFIC_ATTRIBUTES. The list of
		// attributes is limited to a specific list that is provided
		// using the dynamodb:Attributes condition key."
		{"Query the index for Wins and Losses", g.query("", index, "Wins, Losses", types.SelectSpecificAttributes, ""), true, "Query"},
		{"Query the index for its projected attributes", g.query("", index, "TopScoreDateTime, GameTitle, Wins, Losses, Attempts", "", ""), true, "Query"},
		{"Query the index with no Select", g.query("", index, "", "", ""), false, "Query"},
		{"Query the index Select ALL_PROJECTED_ATTRIBUTES", g.query("", index, "", types.SelectAllProjectedAttributes, ""), false, "Query"},
		{"Query the index for UserId", g.query("", index, "UserId, Wins", "", ""), false, "Query"},
		{"Query the table", g.query(amazonID, "", "Wins", "", ""), false, "Query"},
	})
	// "The following permissions policy is similar, but the query must
	// request all of the attributes that have been projected into the
	// index."
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Sid":"QueryAllIndexAttributes","Effect":"Allow",
		"Action":["dynamodb:Query"],"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores/index/TopScoreDateTimeIndex"],
		"Condition":{"StringEquals":{"dynamodb:Select":"ALL_PROJECTED_ATTRIBUTES"}}}]}`)
	check(t, nil, []guideCase{
		// The Query API reference: with neither Select nor a projection,
		// DynamoDB defaults to ALL_PROJECTED_ATTRIBUTES on an index.
		{"Query the index with no Select", g.query("", index, "", "", ""), true, "Query"},
		{"Query the index Select ALL_PROJECTED_ATTRIBUTES", g.query("", index, "", types.SelectAllProjectedAttributes, ""), true, "Query"},
		{"Query the index for Wins", g.query("", index, "Wins", "", ""), false, "Query"},
		{"Query the index Select COUNT", g.query("", index, "", types.SelectCount, ""), false, "Query"},
	})
}

// TestIAMGuideAttributesAndKeyValues: "5: Grant permissions to limit access to
// certain attributes and partition key values".
func TestIAMGuideAttributesAndKeyValues(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Sid":"LimitAccessToCertainAttributesAndKeyValues","Effect":"Allow",
		"Action":["dynamodb:UpdateItem","dynamodb:GetItem","dynamodb:Query","dynamodb:BatchGetItem"],
		"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores","arn:aws:dynamodb:us-west-2:123456789012:table/GameScores/index/TopScoreDateTimeIndex"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${graph.facebook.com:id}"],"dynamodb:Attributes":["attribute-A","attribute-B"]},
			"StringEqualsIfExists":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES","dynamodb:ReturnValues":["NONE","UPDATED_OLD","UPDATED_NEW"]}}}]}`)
	check(t, []string{"attribute-A", "attribute-B"}, []guideCase{
		// "The policy uses the dynamodb:LeadingKeys condition key to
		// restrict permissions to only the items whose partition key
		// value matches the user's Facebook ID."
		{"GetItem own attribute-A", g.getItem(facebookID, "#attribute_A"), true, "GetItem"},
		{"GetItem another player's attribute-A", g.getItem(amazonID, "#attribute_A"), false, "GetItem"},
		{"BatchGetItem own attribute-B", g.batchGet(facebookID, "#attribute_B"), true, "BatchGetItem"},
		// "Write actions allowed by the policy (UpdateItem) can only
		// modify attribute-A or attribute-B."
		{"UpdateItem own attribute-B", g.update(facebookID, "attribute-B", "", ""), true, "UpdateItem"},
		{"UpdateItem own attribute-C", g.update(facebookID, "attribute-C", "", ""), false, "UpdateItem"},
		// "Applications cannot read any attributes other than those
		// listed in dynamodb:Attributes. With this policy in place, an
		// application must set the Select parameter to
		// SPECIFIC_ATTRIBUTES in read requests, and only whitelisted
		// attributes can be requested."
		{"GetItem own whole item", g.getItem(facebookID, ""), false, "GetItem"},
		{"GetItem own attribute-C", g.getItem(facebookID, "#attribute_A, #attribute_C"), false, "GetItem"},
		{"BatchGetItem own whole item", g.batchGet(facebookID, ""), false, "BatchGetItem"},
		{"Query own partition, whole items", g.query(facebookID, "", "", "", ""), false, "Query"},
		// "For write requests, the application cannot set ReturnValues to
		// ALL_OLD or ALL_NEW and it cannot perform conditional write
		// operations based on any other attributes."
		{"UpdateItem ReturnValues ALL_OLD", g.update(facebookID, "attribute-A", "", types.ReturnValueAllOld), false, "UpdateItem"},
		{"UpdateItem ReturnValues UPDATED_NEW", g.update(facebookID, "attribute-A", "", types.ReturnValueUpdatedNew), true, "UpdateItem"},
		{"UpdateItem conditioned on attribute-C", g.update(facebookID, "attribute-A", "attribute_exists(#attribute_C)", ""), false, "UpdateItem"},
		{"UpdateItem conditioned on attribute-B", g.update(facebookID, "attribute-A", "attribute_exists(#attribute_B)", ""), true, "UpdateItem"},
	})
}

// TestIAMGuideHiddenNotTested: a condition or filter on a hidden
// attribute is refused before it is evaluated: the answer is the same
// AccessDeniedException whether the hidden value would pass or not, so
// no request of the policy tells what it holds (example 2: the allowed
// attributes alone "can be read, written, or evaluated in a
// conditional write or scan filter").
func TestIAMGuideHiddenNotTested(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, specificAttributes(`"dynamodb:UpdateItem","dynamodb:GetItem","dynamodb:Query","dynamodb:BatchGetItem","dynamodb:Scan"`, "StringEqualsIfExists", true))
	for _, cond := range []string{"PersonalDetails = :v", "PersonalDetails <> :v"} { // one true, one false
		_, err := g.update(amazonID, "TopScore", cond, "")()
		var ae smithy.APIError
		require.True(t, errors.As(err, &ae), "%s: %v", cond, err)
		require.Equal(t, "AccessDeniedException", ae.ErrorCode(), cond)
	}
	for _, filter := range []string{"Wins > :n", "Wins < :n"} {
		items, err := g.scan("TopScore", "", filter)()
		var ae smithy.APIError
		require.True(t, errors.As(err, &ae), "%s: %v", filter, err)
		require.Empty(t, items)
	}
	out, err := g.root.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: aws.String("GameScores"), Key: ownKey(amazonID)})
	require.NoError(t, err)
	require.Equal(t, &types.AttributeValueMemberN{Value: "1000"}, out.Item["TopScore"], "no denied update wrote")
}

// partiql runs one statement of the gamer.
func (g *guideEnv) partiql(text string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		out, err := g.user.ExecuteStatement(ctxBG, &dynamodb.ExecuteStatementInput{Statement: aws.String(text)})
		if err != nil {
			return nil, err
		}
		return out.Items, nil
	}
}

// partiqlTx runs statements as one ExecuteTransaction of the gamer.
func (g *guideEnv) partiqlTx(texts ...string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		var sts []types.ParameterizedStatement
		for _, text := range texts {
			sts = append(sts, types.ParameterizedStatement{Statement: aws.String(text)})
		}
		out, err := g.user.ExecuteTransaction(ctxBG, &dynamodb.ExecuteTransactionInput{TransactStatements: sts})
		if err != nil {
			return nil, err
		}
		var items []map[string]types.AttributeValue
		for _, r := range out.Responses {
			items = append(items, r.Item)
		}
		return items, nil
	}
}

// partiqlBatch runs statements as one BatchExecuteStatement of the
// gamer: a statement's error is the request's (the first one).
func (g *guideEnv) partiqlBatch(texts ...string) func() ([]map[string]types.AttributeValue, error) {
	return func() ([]map[string]types.AttributeValue, error) {
		var sts []types.BatchStatementRequest
		for _, text := range texts {
			sts = append(sts, types.BatchStatementRequest{Statement: aws.String(text)})
		}
		out, err := g.user.BatchExecuteStatement(ctxBG, &dynamodb.BatchExecuteStatementInput{Statements: sts})
		if err != nil {
			return nil, err
		}
		var items []map[string]types.AttributeValue
		for _, r := range out.Responses {
			if r.Error != nil {
				return nil, &smithy.GenericAPIError{Code: string(r.Error.Code) + "Exception", Message: aws.ToString(r.Error.Message)}
			}
			items = append(items, r.Item)
		}
		return items, nil
	}
}

const (
	musicSelect = `SELECT * FROM "Music" WHERE Artist = 'Acme Band' AND SongTitle = 'Happy Day'`
	musicInsert = `INSERT INTO "Music" VALUE {'Artist': 'Acme Band', 'SongTitle': 'New Song'}`
	musicUpdate = `UPDATE "Music" SET AlbumTitle = 'Other' WHERE Artist = 'Acme Band' AND SongTitle = 'Happy Day'`
	musicDelete = `DELETE FROM "Music" WHERE Artist = 'Acme Band' AND SongTitle = 'No Song'`
	allPartiQL  = `"dynamodb:PartiQLInsert","dynamodb:PartiQLUpdate","dynamodb:PartiQLDelete","dynamodb:PartiQLSelect"`
)

// TestIAMGuidePartiQL: "IAM security policies with PartiQL for
// DynamoDB" (ql-iam.html), its six examples.
func TestIAMGuidePartiQL(t *testing.T) {
	g := newGuideIAMEnv(t)
	music := `"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/Music"]`
	// "The following IAM policy grants permissions to run all PartiQL
	// for DynamoDB statements on a table."
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":[`+allPartiQL+`],`+music+`}]}`)
	check(t, nil, []guideCase{
		{"all: SELECT", g.partiql(musicSelect), true, "PartiQLSelect"},
		{"all: INSERT", g.partiql(musicInsert), true, "PartiQLInsert"},
		{"all: UPDATE", g.partiql(musicUpdate), true, "PartiQLUpdate"},
		{"all: DELETE", g.partiql(musicDelete), true, "PartiQLDelete"},
		{"all: a SELECT of another table", g.partiql(`SELECT * FROM "WatchList" WHERE Id = 'w1'`), false, "PartiQLSelect"},
	})
	// "The following IAM policy grants permissions to run the select
	// statement on a specific table."
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:PartiQLSelect"],`+music+`}]}`)
	check(t, nil, []guideCase{
		{"select: SELECT", g.partiql(musicSelect), true, "PartiQLSelect"},
		{"select: INSERT", g.partiql(`INSERT INTO "Music" VALUE {'Artist': 'Acme Band', 'SongTitle': 'Other Song'}`), false, "PartiQLInsert"},
		{"select: UPDATE", g.partiql(musicUpdate), false, "PartiQLUpdate"},
	})
	// "The following IAM policy grants permissions to run the insert
	// statement on a specific index." An INSERT writes the table, which
	// the policy does not name.
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:PartiQLInsert"],
		"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/Music/index/index1"]}]}`)
	check(t, nil, []guideCase{
		{"index insert: INSERT into the table", g.partiql(`INSERT INTO "Music" VALUE {'Artist': 'Acme Band', 'SongTitle': 'Third Song'}`), false, "PartiQLInsert"},
	})
	// "The following IAM policy grants permissions to run only
	// transactional statements on a specific table."
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":[`+allPartiQL+`],`+music+`,
		"Condition":{"StringEquals":{"dynamodb:EnclosingOperation":["ExecuteTransaction"]}}}]}`)
	check(t, nil, []guideCase{
		{"transactional only: ExecuteTransaction UPDATE", g.partiqlTx(musicUpdate), true, "PartiQLUpdate"},
		{"transactional only: ExecuteTransaction SELECT", g.partiqlTx(musicSelect), true, "PartiQLSelect"},
		{"transactional only: ExecuteStatement UPDATE", g.partiql(musicUpdate), false, "PartiQLUpdate"},
		{"transactional only: ExecuteStatement SELECT", g.partiql(musicSelect), false, "PartiQLSelect"},
		{"transactional only: BatchExecuteStatement UPDATE", g.partiqlBatch(musicUpdate), false, "PartiQLUpdate"},
	})
	// "The following IAM policy grants permissions to run PartiQL for
	// DynamoDB non-transactional reads and writes while blocking
	// PartiQL for DynamoDB transactional reads and writes."
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":[`+allPartiQL+`],`+music+`,
		"Condition":{"StringEquals":{"dynamodb:EnclosingOperation":["ExecuteTransaction"]}}},
		{"Effect":"Allow","Action":[`+allPartiQL+`],`+music+`}]}`)
	check(t, nil, []guideCase{
		{"non-transactional: ExecuteStatement UPDATE", g.partiql(musicUpdate), true, "PartiQLUpdate"},
		{"non-transactional: BatchExecuteStatement SELECT", g.partiqlBatch(musicSelect), true, "PartiQLSelect"},
		{"non-transactional: ExecuteTransaction UPDATE", g.partiqlTx(musicUpdate), false, "PartiQLUpdate"},
		{"non-transactional: ExecuteTransaction SELECT", g.partiqlTx(musicSelect), false, "PartiQLSelect"},
	})
	// "The following IAM policy grants permissions to run the select
	// statement on a specific table while blocking select statements
	// that result in a full table scan."
	watch := `"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/WatchList"]`
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":["dynamodb:PartiQLSelect"],`+watch+`,
		"Condition":{"Bool":{"dynamodb:FullTableScan":["true"]}}},
		{"Effect":"Allow","Action":["dynamodb:PartiQLSelect"],`+watch+`}]}`)
	check(t, nil, []guideCase{
		// The PartiQL SELECT reference: a SELECT "can result in a full
		// table scan if an equality or IN condition with a partition
		// key is not provided in the WHERE clause".
		{"no full scan: SELECT by the partition key", g.partiql(`SELECT * FROM "WatchList" WHERE Id = 'w1'`), true, "PartiQLSelect"},
		{"no full scan: SELECT IN partition keys", g.partiql(`SELECT * FROM "WatchList" WHERE Id IN ['w1', 'w2']`), true, "PartiQLSelect"},
		{"no full scan: SELECT of a table", g.partiql(`SELECT * FROM "WatchList"`), false, "PartiQLSelect"},
		{"no full scan: SELECT by another attribute", g.partiql(`SELECT * FROM "WatchList" WHERE Title = 'Film'`), false, "PartiQLSelect"},
		{"no full scan: SELECT with OR", g.partiql(`SELECT * FROM "WatchList" WHERE Id = 'w1' OR Title = 'Film'`), false, "PartiQLSelect"},
	})
}

// TestIAMGuidePartiQLAttributes: a PartiQL statement's attributes are
// its own, in a batch too: example 2's attribute list on PartiQL's
// actions.
func TestIAMGuidePartiQLAttributes(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:PartiQLSelect","dynamodb:PartiQLUpdate"],
		"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:Attributes":["UserId","TopScore"]},
			"StringEqualsIfExists":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES","dynamodb:ReturnValues":["NONE","UPDATED_OLD","UPDATED_NEW"]}}}]}`)
	own := `WHERE UserId = '` + amazonID + `' AND GameTitle = '` + meteor + `'`
	other := `WHERE UserId = '` + otherPlayer + `' AND GameTitle = '` + meteor + `'`
	check(t, []string{"UserId", "TopScore"}, []guideCase{
		{"SELECT TopScore", g.partiql(`SELECT UserId, TopScore FROM "GameScores" ` + own), true, "PartiQLSelect"},
		{"SELECT *", g.partiql(`SELECT * FROM "GameScores" ` + own), false, "PartiQLSelect"},
		{"SELECT Wins", g.partiql(`SELECT Wins FROM "GameScores" ` + own), false, "PartiQLSelect"},
		{"SELECT TopScore WHERE Wins", g.partiql(`SELECT TopScore FROM "GameScores" WHERE UserId = '` + amazonID + `' AND Wins > 1`), false, "PartiQLSelect"},
		{"UPDATE TopScore", g.partiql(`UPDATE "GameScores" SET TopScore = 7 ` + own), true, "PartiQLUpdate"},
		{"UPDATE Wins", g.partiql(`UPDATE "GameScores" SET Wins = 7 ` + own), false, "PartiQLUpdate"},
		{"UPDATE RETURNING ALL NEW", g.partiql(`UPDATE "GameScores" SET TopScore = 8 ` + own + ` RETURNING ALL NEW *`), false, "PartiQLUpdate"},
		{"UPDATE RETURNING MODIFIED NEW", g.partiql(`UPDATE "GameScores" SET TopScore = 8 ` + own + ` RETURNING MODIFIED NEW *`), true, "PartiQLUpdate"},
		{"batch: two SELECTs of TopScore", g.partiqlBatch(`SELECT TopScore FROM "GameScores" `+own, `SELECT TopScore FROM "GameScores" `+other), true, "PartiQLSelect"},
		{"transaction: two UPDATEs of TopScore", g.partiqlTx(`UPDATE "GameScores" SET TopScore = 9 `+own, `UPDATE "GameScores" SET TopScore = 9 `+other), true, "PartiQLUpdate"},
		{"transaction: an UPDATE of Wins", g.partiqlTx(`UPDATE "GameScores" SET TopScore = 9 `+own, `UPDATE "GameScores" SET Wins = 9 `+other), false, "PartiQLUpdate"},
	})
	// In a batch each statement is its own request: a SELECT of Wins is
	// denied, its neighbour of TopScore is not.
	out, err := g.user.BatchExecuteStatement(ctxBG, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`SELECT TopScore FROM "GameScores" ` + own)}, {Statement: aws.String(`SELECT Wins FROM "GameScores" ` + other)}}})
	require.NoError(t, err)
	require.Nil(t, out.Responses[0].Error)
	require.Equal(t, []string{"TopScore"}, slices.Collect(mapKeys(out.Responses[0].Item)))
	require.NotNil(t, out.Responses[1].Error)
	require.Equal(t, types.BatchStatementErrorCodeEnumAccessDenied, out.Responses[1].Error.Code)
	require.Nil(t, out.Responses[1].Item)
}

// mapKeys are a map's keys.
func mapKeys(m map[string]types.AttributeValue) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestIAMGuideTransactions: "Using IAM with DynamoDB transactions"
// (transaction-apis-iam.html), its four examples.
func TestIAMGuideTransactions(t *testing.T) {
	g := newGuideIAMEnv(t)
	tx := func(table string, rvoccf types.ReturnValuesOnConditionCheckFailure) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			_, err := g.user.TransactWriteItems(ctxBG, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String(table), Item: map[string]types.AttributeValue{"id": s("2"), "v": s("y")}}},
				{ConditionCheck: &types.ConditionCheck{TableName: aws.String(table), Key: map[string]types.AttributeValue{"id": s("1")},
					ConditionExpression: aws.String("attribute_exists(id)"), ReturnValuesOnConditionCheckFailure: rvoccf}},
			}})
			return nil, err
		}
	}
	txGet := func(table string) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			out, err := g.user.TransactGetItems(ctxBG, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: aws.String(table), Key: map[string]types.AttributeValue{"id": s("1")}}}}})
			if err != nil {
				return nil, err
			}
			return []map[string]types.AttributeValue{out.Responses[0].Item}, nil
		}
	}
	putItem := func(table string, rv types.ReturnValue) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			_, err := g.user.PutItem(ctxBG, &dynamodb.PutItemInput{TableName: aws.String(table), ReturnValues: rv,
				Item: map[string]types.AttributeValue{"id": s("3"), "v": s("z")}})
			return nil, err
		}
	}
	getItem := func(table string) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			out, err := g.user.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{"id": s("1")}})
			if err != nil {
				return nil, err
			}
			return []map[string]types.AttributeValue{out.Item}, nil
		}
	}
	actions := `"dynamodb:ConditionCheckItem","dynamodb:PutItem","dynamodb:UpdateItem","dynamodb:DeleteItem","dynamodb:GetItem"`
	table04 := `"Resource":["arn:aws:dynamodb:*:*:table/table04"]`
	onlyTx := `"Condition":{"ForAnyValue:StringEquals":{"dynamodb:EnclosingOperation":["TransactWriteItems","TransactGetItems"]}}`
	// Example 1: Allow transactional operations. "Permissions for Put,
	// Update, Delete, and Get actions are governed by the permissions
	// used for the underlying PutItem, UpdateItem, DeleteItem, and
	// GetItem operations. For the ConditionCheck action, you can use
	// the dynamodb:ConditionCheckItem permission in IAM policies."
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":[`+actions+`],`+table04+`}]}`)
	check(t, nil, []guideCase{
		{"transactions allowed: TransactWriteItems", tx("table04", ""), true, "PutItem"},
		{"transactions allowed: TransactGetItems", txGet("table04"), true, "GetItem"},
		{"transactions allowed: PutItem", putItem("table04", ""), true, "PutItem"},
		{"transactions allowed: on table01", tx("table01", ""), false, "PutItem"},
	})
	// Example 2: Allow only transactional operations.
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":[`+actions+`],`+table04+`,`+onlyTx+`}]}`)
	check(t, nil, []guideCase{
		{"only transactional: TransactWriteItems", tx("table04", ""), true, "PutItem"},
		{"only transactional: TransactGetItems", txGet("table04"), true, "GetItem"},
		{"only transactional: PutItem", putItem("table04", ""), false, "PutItem"},
		{"only transactional: GetItem", getItem("table04"), false, "GetItem"},
	})
	// Example 3: Allow non-transactional reads and writes, and block
	// transactional reads and writes.
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":[`+actions+`],`+table04+`,`+onlyTx+`},
		{"Effect":"Allow","Action":["dynamodb:PutItem","dynamodb:DeleteItem","dynamodb:GetItem","dynamodb:UpdateItem"],`+table04+`}]}`)
	check(t, nil, []guideCase{
		{"non-transactional: PutItem", putItem("table04", ""), true, "PutItem"},
		{"non-transactional: GetItem", getItem("table04"), true, "GetItem"},
		{"non-transactional: TransactWriteItems", tx("table04", ""), false, "PutItem"},
		{"non-transactional: TransactGetItems", txGet("table04"), false, "GetItem"},
	})
	// Example 4: Prevent information from being returned on a
	// ConditionCheck failure.
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":[`+actions+`],
		"Resource":"arn:aws:dynamodb:*:*:table/table01","Condition":{"StringEqualsIfExists":{"dynamodb:ReturnValues":"NONE"}}}]}`)
	check(t, nil, []guideCase{
		{"no values on failure: TransactWriteItems", tx("table01", ""), true, "PutItem"},
		{"no values on failure: ReturnValuesOnConditionCheckFailure ALL_OLD", tx("table01", types.ReturnValuesOnConditionCheckFailureAllOld), false, "ConditionCheckItem"},
		{"no values on failure: PutItem", putItem("table01", ""), true, "PutItem"},
		{"no values on failure: PutItem ReturnValues ALL_OLD", putItem("table01", types.ReturnValueAllOld), false, "PutItem"},
	})
}

// TestIAMGuideABAC: the developer guide's "Using ABAC with DynamoDB
// tables and indexes" (abac-implementation-ddb-tables.html): "The
// following example policy allows users to put or update items in
// tables if these tables contain the tag key-value pair: "environment":
// "staging". If a table doesn't have the specified tag key-value pair,
// these actions are denied."
func TestIAMGuideABAC(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:PutItem","dynamodb:UpdateItem"],
		"Resource":"arn:aws:dynamodb:*:*:table/*","Condition":{"StringEquals":{"aws:ResourceTag/environment":"staging"}}}]}`)
	put := func(table string) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			_, err := g.user.PutItem(ctxBG, &dynamodb.PutItemInput{TableName: aws.String(table), Item: map[string]types.AttributeValue{"id": s("9")}})
			return nil, err
		}
	}
	check(t, nil, []guideCase{
		{"PutItem on the staging table", put("myMusicTable"), true, "PutItem"},
		{"PutItem on the production table", put("otherTable"), false, "PutItem"},
		{"PutItem on an untagged table", put("table01"), false, "PutItem"},
	})
	// Tags change: the next request is decided by the table's tags then.
	_, err := g.root.TagResource(ctxBG, &dynamodb.TagResourceInput{ResourceArn: aws.String("arn:aws:dynamodb:us-east-1:000000000000:table/table01"),
		Tags: []types.Tag{{Key: aws.String("environment"), Value: aws.String("staging")}}})
	require.NoError(t, err)
	check(t, nil, []guideCase{{"PutItem on a table tagged since", put("table01"), true, "PutItem"}})
}

// TestIAMGuideStreamsABAC: the developer guide's streams ABAC examples
// 2 ("Allow tagging a stream using aws:RequestTag": "Because the tag
// key-value pair of "CostCenter": "12345" is present in the TagResource
// request, the inline policy allows the action") and 3 ("Deny stream
// access unless a specific tag is present": with Streams ABAC, "the tag
// key Department is evaluated against the condition-based tag key
// CostCenter" and the Deny applies), with Streams ABAC on. The emulator
// tags no stream: a call IAM lets through is answered
// ResourceNotFoundException by the tagging operation, never
// AccessDeniedException.
func TestIAMGuideStreamsABAC(t *testing.T) {
	g := newGuideIAMEnv(t)
	out, err := g.root.UpdateTable(ctxBG, &dynamodb.UpdateTableInput{TableName: aws.String("Music"),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}})
	require.NoError(t, err)
	stream := aws.ToString(out.TableDescription.LatestStreamArn)
	tag := func(key, value string) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			_, err := g.user.TagResource(ctxBG, &dynamodb.TagResourceInput{ResourceArn: aws.String(stream),
				Tags: []types.Tag{{Key: aws.String(key), Value: aws.String(value)}}})
			var nf *types.ResourceNotFoundException
			if errors.As(err, &nf) {
				return nil, nil // past IAM: the emulator tags no stream
			}
			return nil, err
		}
	}
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:TagResource"],
		"Resource":"arn:aws:dynamodb:*:*:table/*/stream/*","Condition":{"StringEquals":{"aws:RequestTag/CostCenter":"12345"}}}]}`)
	check(t, nil, []guideCase{
		{"RequestTag: CostCenter 12345", tag("CostCenter", "12345"), true, "TagResource"},
		{"RequestTag: CostCenter 999", tag("CostCenter", "999"), false, "TagResource"},
		{"RequestTag: Department", tag("Department", "Engineering"), false, "TagResource"},
	})
	require.NoError(t, g.e.SetIAMPolicies(&IAMPolicies{Identities: []IAMIdentity{{AccessKeyID: gamerKey, ARN: gamerARN, Policies: []json.RawMessage{
		json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:*","Resource":"*"}]}`),
		json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Action":["dynamodb:TagResource"],
			"Resource":"arn:aws:dynamodb:*:*:table/*/stream/*","Condition":{"Null":{"aws:TagKeys":"false"},
			"ForAllValues:StringNotEquals":{"aws:TagKeys":"CostCenter"}}}]}`)}}}}))
	check(t, nil, []guideCase{
		{"TagKeys: Department", tag("Department", "Engineering"), false, "TagResource"},
		{"TagKeys: CostCenter", tag("CostCenter", "1"), true, "TagResource"},
	})
}

// TestIAMGuideCognito: the IAM User Guide's "Amazon DynamoDB: Allows
// item-level access to DynamoDB based on an Amazon Cognito ID": "To
// use this policy, you must structure your DynamoDB table so the
// Amazon Cognito identity pool user ID is the partition key."
func TestIAMGuideCognito(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",
		"Action":["dynamodb:DeleteItem","dynamodb:GetItem","dynamodb:PutItem","dynamodb:Query","dynamodb:UpdateItem"],
		"Resource":["arn:aws:dynamodb:*:*:table/MyTable"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${cognito-identity.amazonaws.com:sub}"]}}}]}`)
	get := func(id string) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			out, err := g.user.GetItem(ctxBG, &dynamodb.GetItemInput{TableName: aws.String("MyTable"), Key: map[string]types.AttributeValue{"UserId": s(id)}})
			if err != nil {
				return nil, err
			}
			return []map[string]types.AttributeValue{out.Item}, nil
		}
	}
	put := func(id string) func() ([]map[string]types.AttributeValue, error) {
		return func() ([]map[string]types.AttributeValue, error) {
			_, err := g.user.PutItem(ctxBG, &dynamodb.PutItemInput{TableName: aws.String("MyTable"), Item: map[string]types.AttributeValue{"UserId": s(id), "Note": s("new")}})
			return nil, err
		}
	}
	scan := func() ([]map[string]types.AttributeValue, error) {
		out, err := g.user.Scan(ctxBG, &dynamodb.ScanInput{TableName: aws.String("MyTable")})
		if err != nil {
			return nil, err
		}
		return out.Items, nil
	}
	check(t, nil, []guideCase{
		{"GetItem own item", get(cognitoID), true, "GetItem"},
		{"PutItem own item", put(cognitoID), true, "PutItem"},
		{"GetItem another user's item", get("us-east-1:bob-cognito"), false, "GetItem"},
		{"PutItem another user's item", put("us-east-1:bob-cognito"), false, "PutItem"},
		{"Scan (not granted)", scan, false, "Scan"},
	})
}

// TestIAMGuideUserGuideAttributes: the IAM User Guide's "Amazon
// DynamoDB: Allows access to specific attributes": "The dynamodb:Select
// requirement prevents the API action from returning any attributes
// that aren't allowed, such as from an index projection."
func TestIAMGuideUserGuideAttributes(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow",
		"Action":["dynamodb:GetItem","dynamodb:BatchGetItem","dynamodb:Query","dynamodb:PutItem","dynamodb:UpdateItem","dynamodb:DeleteItem","dynamodb:BatchWriteItem"],
		"Resource":["arn:aws:dynamodb:*:*:table/GameScores"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:Attributes":["UserId","GameTitle","Wins"]},
			"StringEqualsIfExists":{"dynamodb:Select":"SPECIFIC_ATTRIBUTES"}}}]}`)
	check(t, []string{"UserId", "GameTitle", "Wins"}, []guideCase{
		{"GetItem Wins", g.getItem(amazonID, "Wins"), true, "GetItem"},
		{"Query Wins", g.query(amazonID, "", "GameTitle, Wins", "", ""), true, "Query"},
		{"GetItem whole item", g.getItem(amazonID, ""), false, "GetItem"},
		{"Query whole items", g.query(amazonID, "", "", "", ""), false, "Query"},
		{"Query of the index (not granted)", g.query("", "TopScoreDateTimeIndex", "Wins", "", ""), false, "Query"},
		{"PutItem of Wins", g.put(amazonID, "Wins"), true, "PutItem"},
		{"PutItem of Losses", g.put(amazonID, "Losses"), false, "PutItem"},
		{"DeleteItem", g.deleteItem(amazonID), true, "DeleteItem"},
	})
}

// TestIAMGuideUnknownKey: a policy naming a condition key the emulator
// does not set is refused when it is loaded, with the key's name (the
// developer guide's own examples name aws:SourceVpce and web
// identities' ids; the identity may give the latter).
func TestIAMGuideUnknownKey(t *testing.T) {
	g := newGuideIAMEnv(t)
	vpce := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:*","Resource":"*",
		"Condition":{"StringEquals":{"aws:SourceVpce":"vpce-1a2b3c4d"}}}]}`
	err := g.e.SetIAMPolicies(&IAMPolicies{Identities: []IAMIdentity{{AccessKeyID: gamerKey, ARN: gamerARN, Policies: []json.RawMessage{json.RawMessage(vpce)}}}})
	require.ErrorContains(t, err, `"aws:SourceVpce"`)
	require.ErrorContains(t, err, "policy 1")
	web := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"*",
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:LeadingKeys":["${www.amazon.com:user_id}"]}}}]}`
	err = g.e.SetIAMPolicies(&IAMPolicies{Identities: []IAMIdentity{{AccessKeyID: gamerKey, ARN: gamerARN, Policies: []json.RawMessage{json.RawMessage(web)}}}})
	require.ErrorContains(t, err, `"www.amazon.com:user_id"`)
	err = g.e.SetIAMPolicies(&IAMPolicies{Identities: []IAMIdentity{{AccessKeyID: gamerKey, ARN: gamerARN,
		Keys: map[string]string{"aws:SourceIp": "10.0.0.1"}, Policies: []json.RawMessage{json.RawMessage(web)}}}})
	require.ErrorContains(t, err, `"aws:SourceIp" is one the emulator sets`)
	g.use(t, web)
}

// TestIAMGlobalKeys: the global keys of a request: its address over
// plain HTTP from the loopback, its region, the principal's type and
// account.
func TestIAMGlobalKeys(t *testing.T) {
	g := newGuideIAMEnv(t)
	get := g.getItem(amazonID, "")
	for _, tc := range []struct {
		cond    string
		allowed bool
	}{
		{`{"IpAddress":{"aws:SourceIp":["127.0.0.0/8","::1"]}}`, true},
		{`{"NotIpAddress":{"aws:SourceIp":["127.0.0.0/8","::1"]}}`, false},
		{`{"Bool":{"aws:SecureTransport":"false"}}`, true},
		{`{"Bool":{"aws:SecureTransport":"true"}}`, false},
		{`{"StringEquals":{"aws:RequestedRegion":"us-east-1","aws:PrincipalType":"User","aws:PrincipalAccount":"000000000000","aws:ResourceAccount":"000000000000"}}`, true},
		{`{"StringEquals":{"aws:RequestedRegion":"eu-west-1"}}`, false},
		{`{"StringEquals":{"dynamodb:ReturnConsumedCapacity":"NONE","dynamodb:Select":"ALL_ATTRIBUTES"}}`, true},
	} {
		g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"dynamodb:GetItem","Resource":"*","Condition":`+tc.cond+`}]}`)
		check(t, nil, []guideCase{{tc.cond, get, tc.allowed, "GetItem"}})
	}
}

// gN is a number attribute value.
func gN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// TestIAMPartiQLConcurrent: PartiQL requests of an identity decided at
// once: the stage's statement cache (a leaf lock) and each request's
// statements parsed once (sync.Once), under the race detector.
func TestIAMPartiQLConcurrent(t *testing.T) {
	g := newGuideIAMEnv(t)
	g.use(t, `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["dynamodb:PartiQLSelect"],
		"Resource":["arn:aws:dynamodb:us-west-2:123456789012:table/GameScores"],
		"Condition":{"ForAllValues:StringEquals":{"dynamodb:Attributes":["UserId","TopScore"]}}}]}`)
	own := `WHERE UserId = '` + amazonID + `' AND GameTitle = '` + meteor + `'`
	other := `WHERE UserId = '` + otherPlayer + `' AND GameTitle = '` + meteor + `'`
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			var err error
			for i := 0; i < 10 && err == nil; i++ {
				if (w+i)%2 == 0 {
					_, err = g.partiqlTx(`SELECT TopScore FROM "GameScores" `+own, `SELECT UserId FROM "GameScores" `+other)()
				} else {
					_, err = g.partiqlBatch(`SELECT TopScore FROM "GameScores" `+own, `SELECT TopScore FROM "GameScores" `+other)()
				}
				if err == nil {
					_, err = g.partiqlBatch(`SELECT Wins FROM "GameScores" ` + own)()
					var ae smithy.APIError
					if errors.As(err, &ae) && ae.ErrorCode() == "AccessDeniedException" {
						err = nil
					} else {
						err = errors.Join(errors.New("a SELECT of Wins was not denied"), err)
					}
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		require.NoError(t, <-errs)
	}
}
