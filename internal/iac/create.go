package iac

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// CreateTable is the CreateTable request a table of a template makes:
// the emulator's own shape of it (internal/shapes, whose JSON is
// DynamoDB's wire form, what -load sends and insights reads back), and
// the resource policy, a member of AWS's request that shape does not
// hold. Not aws-sdk-go-v2's types: the server binary does not link the
// SDK.
type CreateTable struct {
	shapes.CreateTableInput
	// ResourcePolicy is the policy document as JSON text, or nil.
	ResourcePolicy *string `json:"ResourcePolicy,omitempty"`
}

// MarshalJSON writes c as a client writes the request: the members the
// template leaves out (nil, which the request shape, made for reading
// requests, writes as null) left out, at every depth.
func (c CreateTable) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(c.CreateTableInput)
	if err != nil {
		return nil, err
	}
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if c.ResourcePolicy != nil {
		v["ResourcePolicy"] = *c.ResourcePolicy
	}
	return json.Marshal(dropNulls(v))
}

// dropNulls removes the null members of v's mappings, at every depth.
func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				x[k] = dropNulls(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = dropNulls(e)
		}
	}
	return v
}

// Int is a whole number of a template, which CloudFormation takes as a
// number or as a string of one ("5" for 5); it is written as a number.
type Int int64

// UnmarshalJSON reads a number (a fraction cut off) or a string of a
// whole number, as toInt.
func (n *Int) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return err
	}
	if num, ok := v.(json.Number); ok {
		if i, err := num.Int64(); err == nil {
			v = i
		} else if f, err := num.Float64(); err == nil {
			v = f
		}
	}
	x, err := toInt(v)
	if err != nil {
		return err
	}
	*n = Int(x)
	return nil
}

// ptr is v's address, for a request's members.
func ptr[T any](v T) *T { return &v }

// int64s is a capacity read from a template as the request's.
func int64s(p *shapes.ProvisionedThroughput[*Int]) *shapes.ProvisionedThroughput[*int64] {
	if p == nil {
		return nil
	}
	conv := func(n *Int) *int64 {
		if n == nil {
			return nil
		}
		return ptr(int64(*n))
	}
	return &shapes.ProvisionedThroughput[*int64]{ReadCapacityUnits: conv(p.ReadCapacityUnits), WriteCapacityUnits: conv(p.WriteCapacityUnits)}
}

// toInt is v, a number of a template, as a whole number.
func toInt(v any) (int64, error) {
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case uint64:
		return int64(x), nil
	case float64:
		return int64(x), nil
	case string:
		return strconv.ParseInt(x, 10, 64)
	}
	return 0, fmt.Errorf("%v: not a number", v)
}
