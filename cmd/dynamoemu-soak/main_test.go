package main

import (
	"testing"
	"time"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    config
		wantErr bool
	}{
		{nil, config{duration: 60 * time.Second, workers: 8, durability: "sync"}, false},
		{[]string{"-duration", "5s", "-workers", "2"}, config{duration: 5 * time.Second, workers: 2, durability: "sync"}, false},
		{[]string{"-duration", "11m"}, config{}, true},
		{[]string{"-kill", "-duration", "2h", "-durability", "group"}, config{duration: 2 * time.Hour, workers: 8, kill: true, durability: "group"}, false},
		{[]string{"-kill", "-duration", "25h"}, config{}, true},
		{[]string{"-kill", "-durability", "fast"}, config{}, true},
		{[]string{"-duration", "0s"}, config{}, true},
		{[]string{"-workers", "0"}, config{}, true},
		{[]string{"-workers", "65"}, config{}, true},
	}
	for _, tt := range tests {
		got, err := parseFlags(tt.args)
		if (err != nil) != tt.wantErr || !tt.wantErr && got != tt.want {
			t.Errorf("%q: got %+v, %v; want %+v, error %v", tt.args, got, err, tt.want, tt.wantErr)
		}
	}
}
