import pytest

from shop import counters

N = range(20)


@pytest.mark.parametrize("i", N)
def test_each_test_counts_from_zero(dynamodb_resource, i):
    table = dynamodb_resource.Table("counters")
    assert counters.peek("visits", table) == 0
    for n in range(1, 4):
        assert counters.next_value("visits", table) == n
