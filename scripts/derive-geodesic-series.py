#!/usr/bin/env python3
"""Derive the order-6 series of Karney's geodesic algorithm with sympy, as a check on the
coefficients written in Sources/TravelogCore/Geodesy/Geodesic+Series.swift.

Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43-55, eqs. (15)-(25)
and (58)-(64). Variables: eps = (sqrt(1 + k^2) - 1) / (sqrt(1 + k^2) + 1) with
k^2 = e'^2 cos^2(alpha0), and the third flattening n = f / (2 - f).

    python3 scripts/derive-geodesic-series.py      (needs sympy; takes about ten seconds)

It prints I1, I2 and the reversion of I1 (series in eps), then the tables of A3, C3 and C4
(polynomials in n for each power of eps) in the Swift form used by Geodesic+Series.swift.
Nothing in the build runs it.
"""
from functools import reduce
from math import gcd

import sympy as sp

ORDER = 6            # series in eps to eps^6; A3, C3 and C4 to total degree 5 in (n, eps)
eps, n, t, w, c = sp.symbols("epsilon n t w c")   # w = exp(i sigma), c = cos(2 sigma)


def laurent(expr):
    """Coefficients of a Laurent polynomial in w, as {power: coefficient}."""
    expr = sp.expand(expr)
    out = {}
    for term in sp.Add.make_args(expr):
        power = sp.degree(sp.expand(term * w**64), w) - 64
        out[power] = out.get(power, 0) + sp.expand(term / w**power)
    return {p: v for p, v in out.items() if v != 0}


def series_in(expr, var, order):
    return sp.expand(sp.series(expr, var, 0, order + 1).removeO())


def total_degree(expr, order):
    """Truncate to total degree `order` in (n, eps)."""
    scaled = sp.expand(expr.subs({n: t * n, eps: t * eps}, simultaneous=True))
    return sp.expand(series_in(scaled, t, order).subs(t, 1))


COS2 = (w**2 + w**-2) / 2          # cos(2 sigma)
SIN1 = (w - 1 / w) / (2 * sp.I)    # sin(sigma)


def cosine_coefficients(poly_in_c):
    """A polynomial in cos(2 sigma) as {l: coefficient of cos(2 l sigma)}."""
    f = laurent(poly_in_c.subs(c, COS2))
    return {p // 2: f[p] * (1 if p == 0 else 2) for p in f if p >= 0}


def integrated(coefficients, order, truncate):
    """int sum B_l cos(2 l s) ds = B0 (s + sum C_l sin(2 l s)); returns B0 and {l: C_l}."""
    b0 = coefficients[0]
    return b0, {l: truncate(series_in(coefficients.get(l, 0) / (2 * l) / b0, eps, order))
                for l in range(1, order + 1)}


def eps_only(order):
    # I1: sqrt(1 + k^2 sin^2) = sqrt(1 + eps^2 - 2 eps cos 2s) / (1 - eps)          (eq. 15)
    b0, c1 = integrated(cosine_coefficients(series_in(sp.sqrt(1 + eps**2 - 2 * eps * c), eps, order)),
                        order, lambda e: e)
    print("(1 - eps) A1 =", sp.expand(b0))
    for l in range(1, order + 1):
        print(f"C1[{l}] =", c1[l])
    # I2: 1 / sqrt(1 + k^2 sin^2) = (1 - eps) / sqrt(1 + eps^2 - 2 eps cos 2s)       (eq. 42)
    b0, c2 = integrated(cosine_coefficients(series_in(1 / sp.sqrt(1 + eps**2 - 2 * eps * c), eps, order)),
                        order, lambda e: e)
    print("(1 + eps) A2 =", sp.expand(series_in((1 - eps**2) * b0, eps, order)))
    for l in range(1, order + 1):
        print(f"C2[{l}] =", c2[l])
    # Reversion of tau = s + g(s), g = sum C1[l] sin(2 l s), by Lagrange's formula:
    # s = tau + sum_m (-1)^m / m! d^(m-1)/dtau^(m-1) g(tau)^m                       (eq. 20)
    g = sum(c1[l] * (w**(2 * l) - w**(-2 * l)) / (2 * sp.I) for l in range(1, order + 1))
    total, power = 0, sp.Integer(1)
    for m in range(1, order + 1):
        power = sum(series_in(v, eps, order) * w**p for p, v in laurent(power * g).items())
        term = power
        for _ in range(m - 1):
            term = sum(v * sp.I * p * w**p for p, v in laurent(term).items())
        total += sp.Rational((-1)**m, sp.factorial(m)) * term
    reverted = laurent(total)
    for l in range(1, order + 1):
        print(f"C1p[{l}] =", series_in(reverted.get(2 * l, 0) * 2 * sp.I, eps, order))


def swift_polynomial(poly):
    """A polynomial in n as `.init([numerators, highest power first], denominator)`."""
    poly = sp.Poly(sp.expand(poly), n)
    coefficients = [sp.Rational(x) for x in poly.all_coeffs()]
    denominator = reduce(lambda a, b: a * b // gcd(a, b), [x.q for x in coefficients], 1)
    numerators = ", ".join(str(int(x * denominator)) for x in coefficients)
    return f".init([{numerators}], {denominator})"


def print_table(name, series_by_l, first_l):
    print(f"-- {name}")
    for l, series in series_by_l.items():
        for k in range(max(l, 0) if first_l else 0, ORDER):
            print(f"    {swift_polynomial(series.coeff(eps, k))},  // {name}[{l}], eps^{k}")


def n_dependent():
    degree = ORDER - 1
    # I3: (2 - f) / (1 + (1 - f) sqrt(1 + k^2 sin^2)), f = 2n / (1 + n)                (eq. 23)
    integrand = 2 / ((1 + t * n) + (1 - t * n) * sp.sqrt(1 + (t * eps)**2 - 2 * t * eps * c) / (1 - t * eps))
    expanded = sp.expand(series_in(integrand, t, degree).subs(t, 1))
    b0, c3 = integrated(cosine_coefficients(expanded), degree, lambda e: total_degree(e, degree))
    a3 = total_degree(b0, degree)
    print_table("A3", {0: a3}, first_l=False)
    print_table("C3", {l: c3[l] for l in range(1, degree + 1)}, first_l=True)
    # I4 = -int_{pi/2}^{s} (t(e'^2) - t(k^2 sin^2)) / (e'^2 - k^2 sin^2) sin / 2     (eqs. 59-60)
    # with t(x) = x + sqrt(1/x + 1) asinh(sqrt x); the divided difference of its power series.
    x, a, b, s = sp.symbols("x a b s")
    tx = series_in(x + sp.sqrt(1 + x) * sp.asinh(sp.sqrt(x)) / sp.sqrt(x), x, degree + 2)
    tj = [tx.coeff(x, j) for j in range(degree + 3)]
    divided = sum(tj[j] * sum(a**i * b**(j - 1 - i) for i in range(j)) for j in range(1, degree + 2))
    ep2, k2 = 4 * t * n / (1 - t * n)**2, 4 * t * eps / (1 - t * eps)**2
    integrand = series_in(divided.subs({a: ep2, b: k2 * s**2}, simultaneous=True), t, degree).subs(t, 1)
    c4 = {}
    for (power,), coefficient in sp.Poly(sp.expand(integrand * s / 2), s).terms():
        for p, v in laurent(SIN1**power).items():
            if p > 0:  # sin(p s) has coefficient 2 i v;  -int_{pi/2}^{s} sin(p x) dx = cos(p s) / p
                l = (p - 1) // 2
                c4[l] = c4.get(l, 0) + coefficient * sp.expand(2 * sp.I * v) / p
    print_table("C4", {l: total_degree(c4[l], degree) for l in sorted(c4)}, first_l=True)


if __name__ == "__main__":
    eps_only(ORDER)
    n_dependent()
