"""The ground floor: what every layer shares and that imports nothing else of ruleproof — the errors with
their stable codes (``errors``), the two languages (``i18n``), atomic file output (``fileio``), Ctrl-C
handling (``interrupt``), forked workers (``forked``) and waiting for a file to change (``watch``)."""
