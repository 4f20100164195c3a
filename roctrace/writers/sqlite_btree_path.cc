#include <algorithm>
#include <cstring>
#include <vector>

#include "roctrace/writers/sqlite_appender_tree.h"
#include "roctrace/writers/sqlite_file_format.h"
#include "roctrace/writers/sqlite_table_appender.h"

// The pages above the leaves at a Flush: the new and changed leaves placed
// (new ones past the file's end), and each interior level's right-most page
// rebuilt in place, or replaced by new pages, up to the root.
namespace roctrace {

using sqlite_format::FinishLeaf;
using sqlite_format::InteriorCellSize;
using sqlite_format::kInteriorHeader;
using sqlite_format::kTableInterior;
using sqlite_format::Put2;
using sqlite_format::Put4;
using sqlite_format::PutVarint;
using sqlite_format::VarintLen;

bool SqliteTableAppender::Fits(const Child* c, size_t n) const {
  size_t bytes = kInteriorHeader;
  for (size_t i = 0; i + 1 < n; ++i) bytes += InteriorCellSize(c[i].maxkey);
  return bytes <= usable_;
}

// Children into interior pages, each as full as it goes and each with at
// least two children (SQLite reads a child page without cells as corrupt).
std::vector<std::vector<SqliteTableAppender::Child>> SqliteTableAppender::Pack(
    const Child* c, size_t n) const {
  std::vector<std::vector<Child>> groups;
  size_t i = 0;
  while (i < n) {
    size_t bytes = kInteriorHeader, j = i + 1;
    while (j < n && bytes + InteriorCellSize(c[j - 1].maxkey) <= usable_) {
      bytes += InteriorCellSize(c[j - 1].maxkey);
      ++j;
    }
    groups.emplace_back(c + i, c + j);
    i = j;
  }
  if (groups.size() > 1 && groups.back().size() == 1) {
    std::vector<Child>& prev = groups[groups.size() - 2];
    groups.back().insert(groups.back().begin(), prev.back());
    prev.pop_back();
  }
  return groups;
}

void SqliteTableAppender::BuildInterior(const Child* c, size_t n,
                                        uint8_t* page) const {
  std::memset(page, 0, page_size_);
  page[0] = kTableInterior;
  uint32_t content = usable_;
  for (size_t i = 0; i + 1 < n; ++i) {
    uint8_t cell[13];
    Put4(cell, c[i].pgno);
    const size_t key_len = VarintLen(static_cast<uint64_t>(c[i].maxkey));
    PutVarint(cell + 4, static_cast<uint64_t>(c[i].maxkey), key_len);
    const size_t size = 4 + key_len;
    content -= static_cast<uint32_t>(size);
    std::memcpy(page + content, cell, size);
    Put2(page + kInteriorHeader + 2 * i, content);
  }
  Put2(page + 3, static_cast<uint32_t>(n - 1));
  Put2(page + 5, content == 65536 ? 0 : content);
  Put4(page + 8, c[n - 1].pgno);
}

uint8_t* SqliteTableAppender::NewPage(FlushState& s, uint32_t* pgno) const {
  *pgno = s.next++;
  s.fresh_pgnos.push_back(*pgno);
  s.fresh.resize(s.fresh.size() + page_size_);
  return s.fresh.data() + s.fresh.size() - page_size_;
}

namespace {
uint8_t* InPlace(std::vector<uint32_t>& pgnos, std::vector<uint8_t>& pages,
                 uint32_t page_size, uint32_t pgno) {
  pgnos.push_back(pgno);
  pages.resize(pages.size() + page_size);
  return pages.data() + pages.size() - page_size;
}
}  // namespace

// `list` (children of a page at `level`) no longer fits in the root, or the
// root leaf's rows no longer fit in one leaf: new pages take them, as many
// levels as it needs, and the root (its page number fixed) becomes the
// interior page above them.
void SqliteTableAppender::GrowRoot(Tree& t, std::vector<Child> list,
                                   size_t level, FlushState& s) {
  while (!Fits(list.data(), list.size())) {
    std::vector<std::vector<Child>> groups = Pack(list.data(), list.size());
    std::vector<Child> up;
    for (const std::vector<Child>& g : groups) {
      uint32_t pgno;
      BuildInterior(g.data(), g.size(), NewPage(s, &pgno));
      up.push_back({pgno, g.back().maxkey});
    }
    if (t.levels.size() < level) t.levels.resize(level);
    t.levels[level - 1] = {up.back().pgno, groups.back()};
    list = std::move(up);
    ++level;
  }
  if (t.levels.size() < level) t.levels.resize(level);
  BuildInterior(list.data(), list.size(),
                InPlace(s.in_place, s.in_place_pages, page_size_, t.root));
  t.levels[level - 1] = {t.root, std::move(list)};
}

bool SqliteTableAppender::FlushTree(Tree& t, FlushState& s) {
  // The leaves: the one on disk first (in place), then new ones.
  struct Item {
    const uint8_t* image;
    uint32_t pgno;
    bool dirty;
    int64_t maxkey;
  };
  std::vector<Item> items;
  for (size_t i = 0; i < t.sealed_leaves.size(); ++i) {
    items.push_back({t.Slot(i, page_size_), t.sealed_leaves[i].pgno,
                     i == 0 ? t.first_sealed_dirty : true,
                     t.sealed_leaves[i].maxkey});
  }
  const bool current = t.leaf_cells > 0;
  if (current) {
    FinishLeaf(t.leaf, t.leaf_cells, t.leaf_content);
    items.push_back({t.leaf, t.leaf_pgno, t.leaf_dirty, t.leaf_max});
  }
  if (items.empty() || (items.size() == 1 && !items[0].dirty)) return true;
  const bool leaf_root = t.levels.empty();
  if (leaf_root && items.size() > 1) items[0].pgno = 0;  // the root moves
  std::vector<Child> below;
  for (Item& item : items) {
    if (item.pgno == 0) {
      item.pgno = s.next++;
      FlushState::Run* last = s.leaves.empty() ? nullptr : &s.leaves.back();
      if (last != nullptr && last->pgno + last->pages == item.pgno &&
          last->data + last->pages * page_size_ == item.image) {
        ++last->pages;
      } else {
        s.leaves.push_back({item.pgno, item.image, 1});
      }
    } else if (item.dirty) {
      std::memcpy(InPlace(s.in_place, s.in_place_pages, page_size_, item.pgno),
                  item.image, page_size_);
    }
    below.push_back({item.pgno, item.maxkey});
  }
  if (current) {
    t.leaf_pgno = items.back().pgno;
    t.leaf_dirty = false;
  }
  t.sealed_leaves.clear();
  if (leaf_root) {
    if (items.size() > 1) GrowRoot(t, std::move(below), 1, s);
    return true;
  }
  // Up the right-most path: each level's page takes its new children in
  // place while they fit and it keeps every child it had; else it is
  // replaced by new pages (and freed once its parent no longer points to
  // it), since dropping a child in place would hide rows until the parent
  // is written.
  bool replaced = false;
  for (size_t level = 1; level <= t.levels.size(); ++level) {
    Tree::Level& x = t.levels[level - 1];
    if (!replaced && below.size() == 1) {  // only the last child grew
      x.children.back().maxkey = below[0].maxkey;
      below = {{x.pgno, below[0].maxkey}};
      continue;
    }
    const size_t m = x.children.size();
    std::vector<Child> list(x.children.begin(), x.children.end() - 1);
    list.insert(list.end(), below.begin(), below.end());
    const bool root = level == t.levels.size();
    if (Fits(list.data(), list.size())) {
      BuildInterior(list.data(), list.size(),
                    InPlace(s.in_place, s.in_place_pages, page_size_, x.pgno));
      x.children = std::move(list);
      below = {{x.pgno, x.children.back().maxkey}};
      replaced = false;
      continue;
    }
    if (root) {
      GrowRoot(t, std::move(list), level, s);
      return true;
    }
    // The most children one page holds: a cell for each but the last.
    size_t longest = 1;
    for (size_t bytes = kInteriorHeader; longest < list.size(); ++longest) {
      bytes += InteriorCellSize(list[longest - 1].maxkey);
      if (bytes > usable_) break;
    }
    const size_t keep = m - 1 + (replaced ? below.size() : 1);
    const size_t p = std::min(longest, list.size() - 2);
    std::vector<Child> next;
    size_t from = 0;
    if (p >= keep) {
      BuildInterior(list.data(), p,
                    InPlace(s.in_place, s.in_place_pages, page_size_, x.pgno));
      next.push_back({x.pgno, list[p - 1].maxkey});
      from = p;
      replaced = false;
    } else {
      s.freed.push_back(x.pgno);
      replaced = true;
    }
    std::vector<std::vector<Child>> groups =
        Pack(list.data() + from, list.size() - from);
    for (const std::vector<Child>& g : groups) {
      uint32_t pgno;
      BuildInterior(g.data(), g.size(), NewPage(s, &pgno));
      next.push_back({pgno, g.back().maxkey});
    }
    x = {next.back().pgno, groups.back()};
    below = std::move(next);
  }
  return true;
}

}  // namespace roctrace
