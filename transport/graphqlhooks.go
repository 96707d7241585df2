package transport

import (
	"context"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/schemas/routes"
	"github.com/quarrycms/quarry/transport/graphql/execute"
	"github.com/quarrycms/quarry/transport/projectcode"
)

// GraphQLReadHooks runs the project's read lifecycle hooks for the GraphQL executor, in the
// runtime's sandboxes; nil when no model has any (or the runtime is off): GraphQLRefusals
// then refuses what reaches them.
func GraphQLReadHooks(m *routes.Model, rt *projectcode.Runtime) execute.ReadHooks {
	if rt == nil || len(m.ReadHookModels()) == 0 {
		return nil
	}
	return &graphqlHooks{m: m, rt: rt}
}

type graphqlHooks struct {
	m  *routes.Model
	rt *projectcode.Runtime
}

func (h *graphqlHooks) Hooked(uid string, events ...string) bool {
	return h.m.ReadEvents(uid, events...)
}

func (h *graphqlHooks) Read(ctx context.Context, who *ir.Caller, uid, action string, args map[string]any) (any, error) {
	return h.rt.GraphQLRead(ctx, who, uid, action, args)
}
