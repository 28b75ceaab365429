"""18xx core: rounds, market, shares, trains and the board, shared by 1830 and 1860."""
