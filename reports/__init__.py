"""Findings and the reports made of them.

- :mod:`.finding` — ``Finding`` and ``CheckResult``, what every engine produces;
- :mod:`.bundle` — ``Report`` (one run, grouped by engine) and ``report_from_check``;
- :mod:`.coverage` — clause coverage;
- :mod:`.writers` — ``WRITERS`` (term, md, html, json, junit, itf) and ``write_reports`` (atomic);
- :mod:`.trace` — traces as data (state diffs) and as a table.
"""
