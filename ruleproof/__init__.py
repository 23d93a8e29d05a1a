"""ruleproof: formal verification and property testing for the written rules of «Берсерк»."""

__version__ = "0.1.0"
