/* An MPI program for roctrace's MPI test, built with the MPI library's own
 * compiler wrapper (mpicc) as users build theirs. Its rocTX marks:
 *   "barrier N"      every rank, right after the N-th of 3 MPI_Barrier calls
 *   "send R"/"recv"  rank 0 marks, then sends to rank R, which marks "recv"
 *                    once the message is in (after rank 0's mark, in time)
 *   "reply"/"got R"  rank R marks and sends to rank 0, which marks "got R"
 *                    once it is in (after rank R's mark)
 * so that a merge that puts the ranks on one clock keeps each message's
 * send before its receipt. */
#include <mpi.h>
#include <stdio.h>

void roctxMarkA(const char* message);

int main(int argc, char** argv) {
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[32];
  for (int i = 0; i < 3; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(name, sizeof(name), "barrier %d", i);
    roctxMarkA(name);
  }
  int token = 0;
  for (int peer = 1; peer < size; ++peer) {
    if (rank == 0) {
      snprintf(name, sizeof(name), "send %d", peer);
      roctxMarkA(name);
      MPI_Send(&token, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      snprintf(name, sizeof(name), "got %d", peer);
      roctxMarkA(name);
    } else if (rank == peer) {
      MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      roctxMarkA("recv");
      roctxMarkA("reply");
      MPI_Send(&token, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  printf("rank %d of %d done\n", rank, size);
  return 0;
}
