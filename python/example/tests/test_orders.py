import pytest

from shop import orders

N = range(20)


@pytest.fixture
def table(dynamodb_resource):
    return dynamodb_resource.Table("orders")


@pytest.mark.parametrize("i", N)
def test_place_then_get(table, i):
    orders.place(table, "ann", f"{i:04}", [{"sku": "apple", "qty": 2, "price": 3}])
    got = orders.get(table, "ann", f"{i:04}")
    assert got["status"] == "new"
    assert got["total"] == 6


@pytest.mark.parametrize("i", N)
def test_place_twice_is_refused(table, i):
    orders.place(table, "bob", "1", [{"sku": "pear", "qty": 1, "price": 4}])
    with pytest.raises(orders.OrderExists):
        orders.place(table, "bob", "1", [{"sku": "pear", "qty": 1, "price": 4}])


@pytest.mark.parametrize("i", N)
def test_customer_sees_only_own_orders(table, i):
    for n in range(i % 5 + 1):
        orders.place(table, "cat", f"{n:04}", [{"sku": "plum", "qty": 1, "price": 2}])
    orders.place(table, "dan", "0001", [{"sku": "plum", "qty": 1, "price": 2}])
    got = orders.of_customer(table, "cat")
    assert [o["sk"] for o in got] == [f"order#{n:04}" for n in range(i % 5 + 1)]


@pytest.mark.parametrize("i", N)
def test_status_index_starts_from_the_seed(table, i):
    assert [o["pk"] for o in orders.with_status(table, "shipped")] == ["customer#seed"]
    orders.place(table, "eve", f"{i}", [{"sku": "apple", "qty": 1, "price": 3}])
    orders.move(table, "eve", f"{i}", "new", "shipped")
    assert len(orders.with_status(table, "shipped")) == 2


@pytest.mark.parametrize("i", N)
def test_move_needs_the_status(table, i):
    orders.place(table, "fay", "9", [{"sku": "apple", "qty": 1, "price": 3}])
    with pytest.raises(orders.BadTransition):
        orders.move(table, "fay", "9", "shipped", "delivered")
    assert orders.move(table, "fay", "9", "new", "paid")["status"] == "paid"
