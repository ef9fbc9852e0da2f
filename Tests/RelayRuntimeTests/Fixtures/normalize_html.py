#!/usr/bin/env python3
"""Normalizes HTML for comparison, by the rules the CommonMark spec tests use: white space
collapsed outside <pre> and dropped around block-level tags, attributes sorted and re-quoted,
character references written as characters (except the four HTML must escape), `<br>` and
`<br />` the same.

Reads a JSON list of HTML texts on standard input; writes the JSON list of their normal forms.
"""
import html
import json
import re
import sys
from html.entities import name2codepoint
from html.parser import HTMLParser

BLOCK_TAGS = set("""
article header aside hgroup blockquote hr iframe body li map button object canvas ol caption
output col p colgroup pre dd progress div section dl table td dt tbody embed textarea fieldset
tfoot figcaption th figure thead footer tr form ul h1 h2 h3 h4 h5 h6 video script style
""".split())
SPACES = re.compile(r"\s+")


class Normalizer(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.output = ""
        self.last = "starttag"
        self.last_tag = ""
        self.in_pre = False

    def handle_data(self, data):
        after_tag = self.last in ("starttag", "endtag")
        after_block = after_tag and self.last_tag in BLOCK_TAGS
        if after_tag and self.last_tag == "br":
            data = data.lstrip("\n")
        if not self.in_pre:
            data = SPACES.sub(" ", data)
        if after_block and not self.in_pre:
            data = data.lstrip() if self.last == "starttag" else data.strip()
        self.output += data
        self.last = "data"

    def handle_starttag(self, tag, attrs):
        if tag == "pre":
            self.in_pre = True
        if tag in BLOCK_TAGS:
            self.output = self.output.rstrip()
        self.output += "<" + tag
        for name, value in sorted(attrs, key=lambda pair: (pair[0], pair[1] or "")):
            self.output += " " + name
            if value is not None:
                self.output += '="' + html.escape(value, quote=True).replace("&#x27;", "'") + '"'
        self.output += ">"
        self.last_tag = tag
        self.last = "starttag"

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.last = "endtag"

    def handle_endtag(self, tag):
        if tag == "pre":
            self.in_pre = False
        elif tag in BLOCK_TAGS:
            self.output = self.output.rstrip()
        self.output += "</" + tag + ">"
        self.last_tag = tag
        self.last = "endtag"

    def handle_comment(self, data):
        self.output += "<!--" + data + "-->"
        self.last = "comment"

    def handle_decl(self, data):
        self.output += "<!" + data + ">"
        self.last = "decl"

    def unknown_decl(self, data):
        self.output += "<!" + data + ">"
        self.last = "decl"

    def handle_pi(self, data):
        self.output += "<?" + data + ">"
        self.last = "pi"

    def handle_entityref(self, name):
        self.character(chr(name2codepoint[name]) if name in name2codepoint else None, "&" + name + ";")

    def handle_charref(self, name):
        try:
            code = int(name[1:], 16) if name.lower().startswith("x") else int(name)
            character = chr(code)
        except (ValueError, OverflowError):
            character = None
        self.character(character, "&#" + name + ";")

    def character(self, character, fallback):
        escapes = {"<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;"}
        self.output += fallback if character is None else escapes.get(character, character)
        self.last = "ref"


def normalize(text):
    parser = Normalizer()
    try:
        parser.feed(text)
        parser.close()
    except Exception:  # what the parser cannot read is compared as it is
        return text
    return parser.output


print(json.dumps([normalize(text) for text in json.load(sys.stdin)]))
