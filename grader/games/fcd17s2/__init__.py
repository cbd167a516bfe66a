"""Final Card-Down, 2017 edition (rules-17s2.md): for now only its engine behind the core's contract (``engine``)."""
