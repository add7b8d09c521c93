#!/usr/bin/env python3
"""Reference option values from QuantLib itself (Debian's quantlib-python, QuantLib 1.29), for
tests/unit/quantlib-reference.test.ts.

Reads one JSON object on stdin, writes one on stdout. Every case is (strike, days, rate, yield, vol, right[, dividends])
on spot 100 unless it says otherwise; times are whole days on an Actual/365 (Fixed) day count, so T = days / 365
exactly as the production code counts years. Kinds:

- "american": price by QdFpAmericanEngine(highPrecisionScheme), with the FP-B/FP-A choice left to QuantLib (Auto);
  also "vega" (central difference, 1e-4 in vol, QdFp accurateScheme).
- "american_theta": the price and theta per year by the same engine: the central difference of the prices one hour
  either side of T, (P(T − 1 h) − P(T + 1 h)) / 2 h, h = 1/(365·24) (the audit quoted the forward one-hour bump,
  which differs from it by about h/(4T) of theta: 1 % at one day).
- "american_check": the same price by FdBlackScholesVanillaEngine (Crank–Nicolson, 2000 time × 1000 space steps)
  and by a 5,001-step Leisen–Reimer tree, to show QuantLib's engines agree with each other.
- "cash": American under the escrowed cash-dividend model, FdBlackScholesVanillaEngine(..., Escrowed),
  2000 × 1000 Crank–Nicolson; "cash_grid": the same on 800 × 400 (within 5e-5 of spot of 2000 × 1000 on the cases
  checked, the largest at vol ≥ 100 %; 6× faster). Dividends are (day, amount) pairs, ex at the start of that day.
- "cash_iv": the "cash_grid" price (800 × 400) and the vega (central difference, ±0.005 in vol, on 400 × 200), to
  check the cash-dividend IV where the vega is low.
- "european": AnalyticEuropeanEngine price, delta, gamma, vega, theta (per year), rho.

The cases are spread over one process per core (multiprocessing, results in the request's order): the finite
difference grids make this the unit suite's longest file.

Standard library and QuantLib only.
"""
import json
import os
import sys
from multiprocessing import Pool

import QuantLib as ql

TODAY = ql.Date(2, ql.January, 2025)
DAY_COUNT = ql.Actual365Fixed()
CALENDAR = ql.NullCalendar()
SPOT = 100.0


def setup(rate, dividend_yield, vol, spot=SPOT):
    spot_q = ql.SimpleQuote(spot)
    rate_q = ql.SimpleQuote(rate)
    div_q = ql.SimpleQuote(dividend_yield)
    vol_q = ql.SimpleQuote(vol)
    process = ql.BlackScholesMertonProcess(
        ql.QuoteHandle(spot_q),
        ql.YieldTermStructureHandle(ql.FlatForward(0, CALENDAR, ql.QuoteHandle(div_q), DAY_COUNT)),
        ql.YieldTermStructureHandle(ql.FlatForward(0, CALENDAR, ql.QuoteHandle(rate_q), DAY_COUNT)),
        ql.BlackVolTermStructureHandle(ql.BlackConstantVol(0, CALENDAR, ql.QuoteHandle(vol_q), DAY_COUNT)),
    )
    return process, {"spot": spot_q, "rate": rate_q, "q": div_q, "vol": vol_q}


def payoff(strike, right):
    return ql.PlainVanillaPayoff(ql.Option.Call if right == "C" else ql.Option.Put, strike)


def american_option(strike, days, right):
    expiry = TODAY + int(days)
    return ql.VanillaOption(payoff(strike, right), ql.AmericanExercise(TODAY, expiry))


def qdfp_price(process, option):
    option.setPricingEngine(ql.QdFpAmericanEngine(process, ql.QdFpAmericanEngine.highPrecisionScheme()))
    return option.NPV()


def american(case):
    strike, days, rate, q, vol, right = case[:6]
    process, quotes = setup(rate, q, vol)
    option = american_option(strike, days, right)
    price = qdfp_price(process, option)
    # The vega only sorts identified from unidentified prices: the accurate scheme is enough for it (and 40× faster).
    option.setPricingEngine(ql.QdFpAmericanEngine(process, ql.QdFpAmericanEngine.accurateScheme()))
    h = 1e-4
    quotes["vol"].setValue(vol + h)
    up = option.NPV()
    quotes["vol"].setValue(max(vol - h, 1e-8))
    down = option.NPV()
    quotes["vol"].setValue(vol)
    vega = (up - down) / (vol + h - max(vol - h, 1e-8))
    return {"price": price, "vega": vega}


def american_theta(case):
    """Theta per year from the prices one hour either side of T. QuantLib counts time in dates, so the hour is
    reproduced exactly by scaling: with T' = T ± 1 h, price(T') under (r, q, σ) equals the price at T under
    (r·T'/T, q·T'/T, σ·sqrt(T'/T)) — the option's value depends on r, q, σ and T only through rT, qT, σ²T and the
    exercise boundary's shape, which the same scaling maps onto itself (time change t → t·T'/T)."""
    strike, days, rate, q, vol, right = case[:6]
    years = days / 365.0
    hour = 1.0 / (365.0 * 24.0)

    def price_at(t):
        k = t / years
        process, _ = setup(rate * k, q * k, vol * k ** 0.5)
        return qdfp_price(process, american_option(strike, days, right))

    process, _ = setup(rate, q, vol)
    p0 = qdfp_price(process, american_option(strike, days, right))
    return {"price": p0, "theta": (price_at(years - hour) - price_at(years + hour)) / (2 * hour)}


def american_check(case):
    strike, days, rate, q, vol, right = case[:6]
    process, _ = setup(rate, q, vol)
    option = american_option(strike, days, right)
    option.setPricingEngine(ql.FdBlackScholesVanillaEngine(process, 2000, 1000, 0, ql.FdmSchemeDesc.CrankNicolson()))
    fd = option.NPV()
    option.setPricingEngine(ql.BinomialVanillaEngine(process, "lr", 5001))
    lr = option.NPV()
    return {"fd": fd, "lr": lr, "qdfp": qdfp_price(process, option)}


def cash(case, t_grid=2000, x_grid=1000):
    strike, days, rate, q, vol, right, dividends = case
    process, _ = setup(rate, q, vol)
    dates = [TODAY + int(d) for d, _ in dividends]
    amounts = [float(a) for _, a in dividends]
    option = ql.DividendVanillaOption(
        payoff(strike, right), ql.AmericanExercise(TODAY, TODAY + int(days)), dates, amounts
    )
    option.setPricingEngine(
        ql.FdBlackScholesVanillaEngine(
            process, t_grid, x_grid, 0, ql.FdmSchemeDesc.CrankNicolson(), False, -ql.nullDouble(),
            ql.FdBlackScholesVanillaEngine.Escrowed,
        )
    )
    return {"price": option.NPV()}


def cash_iv(case):
    vol = case[4]
    up = cash(case[:4] + [vol + 0.005] + case[5:], 400, 200)["price"]
    down = cash(case[:4] + [vol - 0.005] + case[5:], 400, 200)["price"]
    return {"price": cash(case, 800, 400)["price"], "vega": (up - down) / 0.01}


def european(case):
    strike, days, rate, q, vol, right = case[:6]
    process, _ = setup(rate, q, vol)
    option = ql.VanillaOption(payoff(strike, right), ql.EuropeanExercise(TODAY + int(days)))
    option.setPricingEngine(ql.AnalyticEuropeanEngine(process))
    return {
        "price": option.NPV(),
        "delta": option.delta(),
        "gamma": option.gamma(),
        "vega": option.vega(),
        "theta": option.theta(),
        "rho": option.rho(),
    }


KINDS = {
    "american": american,
    "american_theta": american_theta,
    "american_check": american_check,
    "cash": cash,
    "cash_grid": lambda case: cash(case, 800, 400),
    "cash_iv": cash_iv,
    "european": european,
}


def start_worker():
    ql.Settings.instance().evaluationDate = TODAY


def run_case(task):
    kind, case = task
    return KINDS[kind](case)


def main():
    request = json.load(sys.stdin)
    tasks = [(kind, case) for kind, cases in request.items() for case in cases]
    with Pool(os.cpu_count() or 1, initializer=start_worker) as pool:
        results = pool.map(run_case, tasks, chunksize=1)
    out = {"quantlib": ql.__version__}
    for kind, cases in request.items():
        out[kind], results = results[: len(cases)], results[len(cases) :]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
