/* Writes scan_bomb.jpg: a valid 16x16 progressive JPEG with 570 scans (the TurboJPEG API refuses
 * more than 500 with TJFLAG_LIMITSCANS). Every AC coefficient of every component gets a scan of its
 * own, refined bit by bit from Al = 2 to 0: a legal progression, only the number of scans is
 * hostile (the "2,647 scans" bomb does the same from Al = 13). cjpeg -scans stops at 100 scans, so
 * the scan script is given through libjpeg's API.
 * Build and run here: cc make_scan_bomb.c -ljpeg -o /tmp/make_scan_bomb && /tmp/make_scan_bomb */
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

int main(void) {
  static jpeg_scan_info scans[3 + 3 * 3 * 63];
  int n = 0;
  for (int al = 2; al >= 0; al--) {
    /* DC of all components: first scan at Al = 2, then refinements. */
    scans[n].comps_in_scan = 3;
    for (int c = 0; c < 3; c++) scans[n].component_index[c] = c;
    scans[n].Ss = 0; scans[n].Se = 0; scans[n].Ah = al == 2 ? 0 : al + 1; scans[n].Al = al;
    n++;
    for (int c = 0; c < 3; c++)
      for (int k = 1; k <= 63; k++) {
        scans[n].comps_in_scan = 1;
        scans[n].component_index[0] = c;
        scans[n].Ss = k; scans[n].Se = k; scans[n].Ah = al == 2 ? 0 : al + 1; scans[n].Al = al;
        n++;
      }
  }
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr jerr;
  cinfo.err = jpeg_std_error(&jerr);
  jpeg_create_compress(&cinfo);
  FILE *out = fopen("scan_bomb.jpg", "wb");
  if (!out) return 1;
  jpeg_stdio_dest(&cinfo, out);
  cinfo.image_width = 16; cinfo.image_height = 16;
  cinfo.input_components = 3; cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&cinfo);
  jpeg_set_quality(&cinfo, 90, TRUE);
  for (int c = 0; c < 3; c++) { cinfo.comp_info[c].h_samp_factor = 1; cinfo.comp_info[c].v_samp_factor = 1; }
  cinfo.scan_info = scans;
  cinfo.num_scans = n;
  jpeg_start_compress(&cinfo, TRUE);
  JSAMPLE row[16 * 3];
  while (cinfo.next_scanline < 16) {
    for (int x = 0; x < 16; x++) {
      row[3 * x] = (JSAMPLE)(x * 16); row[3 * x + 1] = (JSAMPLE)(cinfo.next_scanline * 16); row[3 * x + 2] = 128;
    }
    JSAMPROW rows[1] = {row};
    jpeg_write_scanlines(&cinfo, rows, 1);
  }
  jpeg_finish_compress(&cinfo);
  fclose(out);
  jpeg_destroy_compress(&cinfo);
  printf("scan_bomb.jpg: %d scans\n", n);
  return 0;
}
