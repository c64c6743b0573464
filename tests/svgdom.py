"""The few ``xml.dom.minidom`` calls the picture tests make, on ElementTree.

``minidom.parseString`` builds a Python object for every node and attribute of a picture (about
20 ms for one board); the tests only ask for elements by tag and read their attributes and first
text.  :func:`parseString` parses with the same expat parser (a picture that is not well-formed XML
raises ``xml.etree.ElementTree.ParseError``, a ``SyntaxError``) and answers those calls as minidom
does: tag names without the SVG namespace, ``getAttribute`` of a missing attribute is ``""``,
``getElementsByTagName`` lists descendants in document order (``"*"``: every one) and, on the
document, includes the root element.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree import ElementTree


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


@dataclass(frozen=True)
class Text:
    """A text node: minidom's ``data`` / ``nodeValue``."""

    data: str

    @property
    def nodeValue(self) -> str:  # noqa: N802 (minidom's name)
        return self.data


class Element:
    """One element: ``tagName``, ``getAttribute``, ``getElementsByTagName``, ``firstChild``."""

    __slots__ = ("_el",)

    def __init__(self, el: ElementTree.Element) -> None:
        self._el = el

    @property
    def tagName(self) -> str:  # noqa: N802
        return _local(self._el.tag)

    def getAttribute(self, name: str) -> str:  # noqa: N802
        return self._el.get(name, "")

    def _descendants(self, tag: str) -> Iterator[ElementTree.Element]:
        for el in self._el.iter():
            if el is not self._el and (tag == "*" or _local(el.tag) == tag):
                yield el

    def getElementsByTagName(self, tag: str) -> list[Element]:  # noqa: N802
        return [Element(el) for el in self._descendants(tag)]

    @property
    def firstChild(self) -> Text | Element | None:  # noqa: N802
        if self._el.text:
            return Text(self._el.text)
        return Element(self._el[0]) if len(self._el) else None


class Document:
    """The parsed picture: ``documentElement`` and ``getElementsByTagName`` (root included)."""

    __slots__ = ("documentElement",)

    def __init__(self, root: ElementTree.Element) -> None:
        self.documentElement = Element(root)

    def getElementsByTagName(self, tag: str) -> list[Element]:  # noqa: N802
        root = self.documentElement
        own = [root] if tag in ("*", root.tagName) else []
        return own + root.getElementsByTagName(tag)


def parseString(text: str) -> Document:  # noqa: N802 (minidom's name)
    """The document of ``text`` (raises on XML that is not well formed)."""
    return Document(ElementTree.fromstring(text))
