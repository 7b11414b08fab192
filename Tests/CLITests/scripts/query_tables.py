"""Runs one query of docs/analytics.md, by its title, over a `lifesim export --format tables`
folder loaded with its schema.sql, and prints each row as a JSON array, one a line.
usage: query_tables.py DIR ANALYTICS_MD TITLE"""
import json
import os
import re
import sys

import duckdb


def main(folder, analytics, title):
    queries = dict(re.findall(r"^### (.+?)\n\n```sql\n(.*?)```", open(analytics).read(), re.S | re.M))
    os.chdir(folder)
    con = duckdb.connect()
    con.execute(open("schema.sql").read())
    for row in con.sql(queries[title]).fetchall():
        print(json.dumps(row))


main(*sys.argv[1:])
