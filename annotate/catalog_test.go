package annotate

import (
	"go/token"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCatalog(t *testing.T) {
	at := func(file string, line int) token.Position { return token.Position{Filename: file, Line: line} }
	orders := &Package{Path: "example.com/shop/orders", Resources: []*Resource{
		{
			Name: "createOrder", Pos: at("/m/orders/service.go", 30),
			Func:         &Func{Name: "CreateOrder", Recv: &Receiver{TypeName: "OrderService", Pointer: true}},
			BlockHandler: &Handler{Written: "createOrderBlocked"},
			Fallback:     &Handler{Written: "orders.Fallback"},
			EntryType:    EntryIn,
		},
		{
			Name: "example.com/shop/orders.Cache.Get", Pos: at("/m/orders/cache.go", 12),
			Func:            &Func{Name: "Get", Recv: &Receiver{TypeName: "Cache", TypeParams: []TypeParam{{Name: "K"}, {Name: "V"}}}},
			DefaultFallback: &Handler{Written: "miss"},
			ResourceType:    ResourceCache,
		},
	}}
	stock := &Package{Path: "example.com/shop/stock", Resources: []*Resource{
		{Name: "reserve", Pos: at("/m/stock/stock.go", 7), Func: &Func{Name: "Reserve"}, ResourceType: ResourceRPC},
	}}
	got := Catalog([]*Package{stock, orders, {Path: "example.com/shop/none"}})
	want := []CatalogEntry{
		{Name: "createOrder", Package: "example.com/shop/orders", Function: "(*OrderService).CreateOrder",
			File: "/m/orders/service.go", Line: 30, BlockHandler: "createOrderBlocked", Fallback: "orders.Fallback",
			EntryType: "in", ResourceType: "common"},
		{Name: "example.com/shop/orders.Cache.Get", Package: "example.com/shop/orders", Function: "(Cache[K, V]).Get",
			File: "/m/orders/cache.go", Line: 12, DefaultFallback: "miss", EntryType: "out", ResourceType: "cache"},
		{Name: "reserve", Package: "example.com/shop/stock", Function: "Reserve",
			File: "/m/stock/stock.go", Line: 7, EntryType: "out", ResourceType: "rpc"},
	}
	assert.Equal(t, want, got)
}

// Every value the directive accepts has its spelling back.
func TestTypeNamesRoundTrip(t *testing.T) {
	for word, v := range entryTypes {
		assert.Equal(t, word, EntryTypeName(v))
	}
	for word, v := range resourceTypes {
		assert.Equal(t, word, ResourceTypeName(v))
	}
}

func TestClosestName(t *testing.T) {
	names := []string{"createOrder", "queryStock"}
	assert.Equal(t, "createOrder", ClosestName("creatOrder", names))
	assert.Equal(t, "createOrder", ClosestName("CreateOrder", names), "case is ignored")
	assert.Equal(t, "", ClosestName("payments", names))
}

// The variants of a package generated per build constraint list a shared
// directive once, and each platform's own directives once each.
func TestCatalogVariants(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join(goldenRoot, "gen_platforms"))
	require.NoError(t, err)
	pkgs, diags, err := Load(dir, nil, Options{})
	require.NoError(t, err)
	require.Empty(t, diags)
	require.Len(t, pkgs, 4, "sentinel_gen.go and three per-constraint files")
	var names []string
	for _, e := range Catalog(pkgs) {
		names = append(names, e.Name)
	}
	assert.Equal(t, []string{"platforms.flushWindows", "platforms.get", "platforms.mmap", "platforms.syncLinux", "platforms.syncWindows"}, names)
}
