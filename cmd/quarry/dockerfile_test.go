package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The container recipe builds the static binary, runs it as a non-root user and checks health
// with the binary itself (a distroless image has no curl). .ci/run builds the image where a
// container engine runs.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(data)
	if n := len(regexp.MustCompile(`(?m)^FROM `).FindAllString(df, -1)); n < 2 {
		t.Errorf("not multi-stage: %d FROM lines", n)
	}
	for _, want := range []string{"CGO_ENABLED=0 go build", "./cmd/quarry", `HEALTHCHECK`, `"quarry", "health"`, "EXPOSE 1337"} {
		if !strings.Contains(strings.ReplaceAll(df, "/usr/local/bin/quarry", "quarry"), want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(df)
	if user == nil || strings.HasPrefix(user[1], "root") || strings.HasPrefix(user[1], "0") {
		t.Errorf("the image must run as a non-root user, got %v", user)
	}
	// One data folder: a VOLUME over the app folder would hide a mounted project's own
	// uploads, and two volumes let the database and its files drift apart.
	if vols := regexp.MustCompile(`(?m)^VOLUME (.*)$`).FindAllStringSubmatch(df, -1); len(vols) != 1 || vols[0][1] != `["/data"]` {
		t.Errorf("want exactly VOLUME [\"/data\"], got %v", vols)
	}
	if !regexp.MustCompile(`(?m)^ENV .*NODE_ENV=production`).MatchString(df) {
		t.Error("the image must default to NODE_ENV=production")
	}
	if _, err := os.Stat("../../.dockerignore"); err != nil {
		t.Errorf(".dockerignore: %v", err)
	}
}
