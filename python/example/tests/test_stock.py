import pytest

from shop import stock

N = range(20)


@pytest.mark.parametrize("i", N)
def test_reserve_takes_stock(dynamodb, i):
    stock.reserve([{"sku": "apple", "qty": 1 + i % 3}, {"sku": "pear", "qty": 1}], client=dynamodb)
    assert stock.level("apple", client=dynamodb) == 10 - (1 + i % 3)
    assert stock.level("pear", client=dynamodb) == 4


@pytest.mark.parametrize("i", N)
def test_reserve_is_all_or_nothing(dynamodb, i):
    with pytest.raises(stock.OutOfStock) as err:
        stock.reserve([{"sku": "apple", "qty": 2}, {"sku": "plum", "qty": 1}], client=dynamodb)
    assert str(err.value) == "plum"
    assert stock.level("apple", client=dynamodb) == 10


@pytest.mark.parametrize("i", N)
def test_code_under_test_makes_its_own_client(dynamoemu_endpoint, i):
    # stock.level makes its client from the environment the plugin set
    assert stock.level("pear") == 5
    stock.reserve([{"sku": "pear", "qty": 5}])
    assert stock.level("pear") == 0
