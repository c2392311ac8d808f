// landmarks_dlib: dlib's own C++ shape_predictor on the faces landmarks-timing prepared, built by
// Benchmarks/run.sh against Debian's libdlib-dev (never committed as a binary).
//
// Usage: landmarks_dlib MODEL FOLDER [ROUNDS]
// Reads FOLDER/faces.txt ("<n>.pgm left top right bottom" per line) and the binary PGM planes it
// names, deserialises MODEL, evaluates every face once as warm-up and ROUNDS times (default 20)
// timed, writes dlib's points to FOLDER/points-dlib.txt and prints one JSON line like
// landmarks-timing's.
#include <dlib/image_processing.h>
#include <dlib/array2d.h>
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

static dlib::array2d<unsigned char> read_pgm(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string magic;
    long width = 0, height = 0, maximum = 0;
    in >> magic >> width >> height >> maximum;
    in.get();
    if (magic != "P5" || width <= 0 || height <= 0 || maximum != 255) throw std::runtime_error("bad PGM " + path);
    dlib::array2d<unsigned char> plane(height, width);
    for (long y = 0; y < height; ++y) in.read(reinterpret_cast<char*>(&plane[y][0]), width);
    if (!in) throw std::runtime_error("short PGM " + path);
    return plane;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: landmarks_dlib MODEL FOLDER [ROUNDS]\n";
        return 64;
    }
    const std::string folder = argv[2];
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 20;
    auto started = std::chrono::steady_clock::now();
    dlib::shape_predictor predictor;
    dlib::deserialize(argv[1]) >> predictor;
    double read_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    std::vector<dlib::array2d<unsigned char>> planes;
    std::vector<dlib::rectangle> rects;
    std::ifstream list(folder + "/faces.txt");
    std::string name;
    long left, top, right, bottom;
    while (list >> name >> left >> top >> right >> bottom) {
        planes.push_back(read_pgm(folder + "/" + name));
        rects.emplace_back(left, top, right, bottom);
    }
    std::vector<dlib::full_object_detection> shapes(planes.size());
    for (size_t i = 0; i < planes.size(); ++i) shapes[i] = predictor(planes[i], rects[i]);
    auto timed = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r)
        for (size_t i = 0; i < planes.size(); ++i) shapes[i] = predictor(planes[i], rects[i]);
    double total_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - timed).count();
    std::ofstream points(folder + "/points-dlib.txt");
    for (const auto& shape : shapes) {
        for (unsigned long k = 0; k < shape.num_parts(); ++k)
            points << (k ? " " : "") << shape.part(k).x() << " " << shape.part(k).y();
        points << "\n";
    }
    std::cout << "{\"faces\":" << planes.size() << ",\"rounds\":" << rounds
              << ",\"us_per_face\":" << total_us / (rounds * planes.size()) << ",\"model_read_ms\":" << read_ms
              << "}" << std::endl;
    return 0;
}
