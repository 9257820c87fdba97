#include "core/kubectl/printers/tabwriter.h"

#include <algorithm>
#include <vector>

namespace kubectl::printers {
namespace {

struct Cell {
  std::string text;
  int width = 0;  // in code points
};
using Line = std::vector<Cell>;

int CodePoints(const std::string& s) {
  int n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;  // count every byte that is not a UTF-8 continuation byte
  }
  return n;
}

// Layout holds the parsed lines and the column widths of the blocks being formatted.
class Layout {
 public:
  Layout(std::vector<Line> lines, bool final_newline, int min_width, int padding)
      : lines_(std::move(lines)),
        final_newline_(final_newline),
        min_width_(min_width),
        padding_(padding) {}

  std::string Run() {
    Format(0, lines_.size());
    return out_;
  }

 private:
  // Format mirrors tabwriter's recursive column-block pass: for the next column, find each run
  // of consecutive lines that have a cell in it, size the column for that run, and recurse.
  void Format(size_t line0, size_t line1) {
    const size_t column = widths_.size();
    for (size_t row = line0; row < line1; ++row) {
      if (column + 1 >= lines_[row].size()) continue;  // no tab-terminated cell in this column
      WriteLines(line0, row);
      line0 = row;
      int width = min_width_;
      for (; row < line1; ++row) {
        if (column + 1 >= lines_[row].size()) break;
        width = std::max(width, lines_[row][column].width + padding_);
      }
      widths_.push_back(width);
      Format(line0, row);
      widths_.pop_back();
      line0 = row;
    }
    WriteLines(line0, line1);
  }

  void WriteLines(size_t line0, size_t line1) {
    for (size_t i = line0; i < line1; ++i) {
      const Line& line = lines_[i];
      for (size_t j = 0; j < line.size(); ++j) {
        out_ += line[j].text;
        if (j < widths_.size() && widths_[j] > line[j].width) {
          out_.append(static_cast<size_t>(widths_[j] - line[j].width), ' ');
        }
      }
      if (i + 1 < lines_.size() || final_newline_) out_ += '\n';
    }
  }

  std::vector<Line> lines_;
  bool final_newline_;
  int min_width_;
  int padding_;
  std::vector<int>
      widths_;  // Invariant: widths_[k] is the width of column k for the current block.
  std::string out_;
};

}  // namespace

std::string AlignTabs(const std::string& text, int min_width, int padding) {
  std::vector<Line> lines;
  Line current;
  std::string cell;
  auto end_cell = [&]() {
    current.push_back(Cell{cell, CodePoints(cell)});
    cell.clear();
  };
  for (char c : text) {
    if (c == '\t') {
      end_cell();
    } else if (c == '\n') {
      end_cell();
      lines.push_back(std::move(current));
      current.clear();
    } else {
      cell += c;
    }
  }
  const bool final_newline = cell.empty() && current.empty();
  if (!final_newline) {
    end_cell();
    lines.push_back(std::move(current));
  }
  return Layout(std::move(lines), final_newline, min_width, padding).Run();
}

std::string TrimTrailingSpaces(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    const bool has_newline = end != std::string::npos;
    if (!has_newline) end = text.size();
    size_t last = end;
    while (last > start && text[last - 1] == ' ') --last;
    out.append(text, start, last - start);
    if (has_newline) out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace kubectl::printers
