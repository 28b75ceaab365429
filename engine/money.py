"""Amounts of money as every text and image shows them: the currency sign, then the amount with
thousands separators ("$1,200", "-£40"), so that a figure reads the same in a post and in the
images posted with it."""

from __future__ import annotations


def format_money(currency: str, amount: float) -> str:
    sign = "-" if amount < 0 else ""
    figure = f"{abs(amount):,g}" if isinstance(amount, float) else f"{abs(amount):,}"
    return f"{sign}{currency}{figure}"
