// Package pairing decides who plays whom in a tournament's round, without
// a database: round robin and Swiss, for tables of two and for tables of
// three or four. It sees players by id, in the order of the standings,
// with what they did so far (Record); the caller keeps the results.
//
// # Decisions
//
//   - Tables of three or four (Multi): as many tables of four as leave the
//     rest to tables of three (Split): 6 = 3+3, 7 = 4+3, 9 = 3+3+3, and so
//     on; 5 players, which no such split seats, give one player a bye
//     (a table of four), as an odd count does at tables of two.
//   - The bye goes to the lowest-ranked player with the fewest byes so far:
//     nobody gets a second while another has had none. A bye counts as a
//     win (the caller gives its points).
//   - Swiss at tables of two (Monrad): the highest-ranked free player
//     meets the highest-ranked free player they have not met, searched
//     with backtracking, so a pairing without a rematch is found whenever
//     one exists (within a bound of steps; past it, or when none exists,
//     the fewest rematches the search meets); among pairings with as few
//     rematches, one where no two players meet who each sat first (or
//     each second) two games more than the other is preferred, so that
//     nobody drifts three from even. The bye, too, is moved up the ranking
//     (among those with the fewest byes) when the lowest's would force a
//     rematch or such a clash.
//   - Swiss at tables of three or four: tables are filled from the top of
//     the ranking, each with the players who met those already there the
//     fewest times, nearest in rank first (greedy); then players are
//     swapped between tables while that lowers the repeated meetings
//     (squared), and then the spread of rank at a table.
//   - Round robin at tables of two: the circle method, every pair once,
//     n−1 rounds (n even) or n rounds with a bye each (n odd); of the i-th
//     and j-th seeds (i < j) the i-th sits first when i+j is odd, so each
//     sits first in half their games, give or take one. At tables of
//     three or four: as many rounds as a player needs to meet everyone
//     once if no meeting repeated (n−1 over the smallest table's other
//     seats, rounded up; n rounds when there are byes, so that each sits
//     out once), each round grouped as Swiss groups, from a fixed order.
//   - Seats (Swiss, and round robin at tables of three or four): the
//     player who sat first the fewest times for their games (2×firsts −
//     games) sits first, and so on down the table; a table's order is its
//     play order.
package pairing
