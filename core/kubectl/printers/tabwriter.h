#pragma once
// AlignTabs lays out tab-separated text in aligned columns, the way kubectl's printers do by
// writing through Go's text/tabwriter: `kubectl get` uses minimum width 6 and padding 3,
// `kubectl describe` minimum width 0 and padding 2. Consecutive lines that share a column form a
// "column block" and are aligned together; a line without that column ends the block, which is
// why `describe` output realigns after every `Key:` line that opens a nested section.
// Mirrors: Go text/tabwriter (Writer.format / writeLines), as configured by cli-runtime
// printers.GetNewTabWriter and kubectl describe's tabbedString.
// Simplified: padding character is always ' '; no flags (AlignRight, DiscardEmptyColumns,
// TabIndent, escapes); cell width counts UTF-8 code points, as Go counts runes.
// Single-threaded; no time.

#include <string>

namespace kubectl::printers {

// AlignTabs formats text: each '\t' ends a cell, each '\n' ends a line; the last cell of a line
// is not part of a column and is never padded. Returns the text with cells padded by spaces.
std::string AlignTabs(const std::string& text, int min_width, int padding);

// TrimTrailingSpaces removes spaces at the end of every line.
// Teaching: Go's tabwriter pads a cell even when the cell after it is empty, so kubectl can print
// trailing blanks; the lab trims them so golden outputs survive editors.
std::string TrimTrailingSpaces(const std::string& text);

}  // namespace kubectl::printers
