package annotate

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGeneratedNames(t *testing.T) {
	tests := []struct{ user, guarded, constructor string }{
		{"OrderService", "GuardedOrderService", "NewGuardedOrderService"},
		{"T", "GuardedT", "NewGuardedT"},
		{"orderService", "guardedOrderService", "newGuardedOrderService"},
		{"t", "guardedT", "newGuardedT"},
		{"xMLParser", "guardedXMLParser", "newGuardedXMLParser"},
		{"_impl", "guarded_impl", "newGuarded_impl"},
		{"élan", "guardedÉlan", "newGuardedÉlan"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.guarded, guardedName(tt.user), tt.user)
		assert.Equal(t, tt.constructor, constructorName(tt.user), tt.user)
	}
}

func TestDefaultResourceName(t *testing.T) {
	pkg := types.NewPackage("example.com/shop/orders", "orders")
	assert.Equal(t, "example.com/shop/orders.OrderService.CreateOrder", defaultResourceName(pkg, "OrderService", "CreateOrder"))
	assert.Equal(t, "example.com/shop/orders.Ping", defaultResourceName(pkg, "", "Ping"))
}

func TestClosest(t *testing.T) {
	candidates := []string{"createOrderBlocked", "createOrderFallback", "Get", "blockHandler"}
	tests := []struct{ name, want string }{
		{"createOrderBlokced", "createOrderBlocked"},
		{"createOrderFallbak", "createOrderFallback"},
		{"blockhandler", "blockHandler"}, // case only
		{"Gte", "Get"},
		{"nothingLikeIt", ""},
		{"Get", ""}, // itself is not a suggestion
		{"x", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, closest(tt.name, candidates), tt.name)
	}
	assert.Equal(t, 3, editDistance("kitten", "sitting"))
	assert.Equal(t, 1, editDistance("Gte", "Get"), "a swap is one edit")
	assert.Equal(t, 3, editDistance("ca", "abc"), "no edits inside a swapped pair (optimal string alignment)")
	assert.Equal(t, 0, editDistance("", ""))
	assert.Equal(t, 4, editDistance("", "abcd"))
}
