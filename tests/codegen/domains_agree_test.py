"""The generator's domain list has two halves, one per language: the
generator's (codegen/domains.py) and Bazel's (codegen/domains.bzl: where the
headers and the library are). They must name the same domains in the same
order, or a domain is generated but never built (or the reverse)."""

import os
import re
import unittest

from codegen import domains

RUNFILES = os.path.join(os.environ.get("TEST_SRCDIR", ""), "roctracer")


class DomainsAgreeTest(unittest.TestCase):

  def test_same_domains_in_the_same_order(self):
    with open(os.path.join(RUNFILES, "codegen", "domains.bzl")) as f:
      bzl = re.findall(r'^\s*name = "(\w+)",$', f.read(), re.M)
    self.assertEqual([d.name for d in domains.DOMAINS], bzl)

  def test_activity_domains_are_distinct(self):
    values = [d.activity_domain for d in domains.DOMAINS]
    self.assertEqual(len(values), len(set(values)))


if __name__ == "__main__":
  unittest.main()
