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
